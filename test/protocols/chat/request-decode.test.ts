/** Validation of Chat client requests: every bad input is a 400 with a stable code and param. */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/protocols/errors.js';
import { chatCodec, wantsStreamUsage } from '../../../src/protocols/chat/index.js';

const user = { role: 'user', content: 'hi' };
const base = { model: 'anthropic/claude', messages: [user] };
const call = (id: string, name = 'f') => ({ id, type: 'function', function: { name, arguments: '{}' } });
const tools = [{ type: 'function', function: { name: 'f' } }];

function errorOf(body: unknown): ProtocolError {
  try {
    chatCodec.decodeRequest(body);
  } catch (err) {
    if (err instanceof ProtocolError) return err;
    throw err;
  }
  throw new Error('expected a ProtocolError');
}

const CASES: Array<[string, unknown, string, string | undefined]> = [
  ['body not an object', [base], 'invalid_request', undefined],
  ['model missing', { messages: [user] }, 'invalid_model', 'model'],
  ['model not a string', { ...base, model: 42 }, 'invalid_model', 'model'],
  ['model empty', { ...base, model: '' }, 'invalid_model', 'model'],
  ['messages missing', { model: 'a/b' }, 'invalid_messages', 'messages'],
  ['messages empty', { ...base, messages: [] }, 'invalid_messages', 'messages'],
  ['message not an object', { ...base, messages: ['hi'] }, 'invalid_messages', 'messages[0]'],
  ['unknown role', { ...base, messages: [{ role: 'robot', content: 'x' }] }, 'invalid_messages', 'messages[0].role'],
  ['role missing', { ...base, messages: [{ content: 'x' }] }, 'invalid_messages', 'messages[0].role'],
  ['user content missing', { ...base, messages: [{ role: 'user' }] }, 'invalid_messages', 'messages[0].content'],
  ['user content an empty array', { ...base, messages: [{ role: 'user', content: [] }] }, 'invalid_messages', 'messages[0].content'],
  ['user content a number', { ...base, messages: [{ role: 'user', content: 3 }] }, 'invalid_messages', 'messages[0].content'],
  ['system content with an image', { ...base, messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }, user] }, 'invalid_content_part', 'messages[0].content[0].type'],
  ['unknown part type', { ...base, messages: [{ role: 'user', content: [{ type: 'video', video: {} }] }] }, 'invalid_content_part', 'messages[0].content[0].type'],
  ['text part without text', { ...base, messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'invalid_content_part', 'messages[0].content[0].text'],
  ['image with ftp url', { ...base, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }] }, 'invalid_image', 'messages[0].content[0].image_url.url'],
  ['image with a broken data url', { ...base, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png,abc' } }] }] }, 'invalid_image', 'messages[0].content[0].image_url.url'],
  ['image data url without payload', { ...base, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,' } }] }] }, 'invalid_image', 'messages[0].content[0].image_url.url'],
  ['image data url with a non-base64 payload', { ...base, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,<script>' } }] }] }, 'invalid_image', 'messages[0].content[0].image_url.url'],
  ['image_url missing', { ...base, messages: [{ role: 'user', content: [{ type: 'image_url' }] }] }, 'invalid_image', 'messages[0].content[0].image_url'],
  ['audio without format', { ...base, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AA==' } }] }] }, 'invalid_content_part', 'messages[0].content[0].input_audio.format'],
  ['file without data or id', { ...base, messages: [{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf' } }] }] }, 'invalid_content_part', 'messages[0].content[0].file'],
  ['bad cache_control', { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'forever' } }] }] }, 'invalid_content_part', 'messages[0].content[0].cache_control'],
  ['tool call without result', { ...base, messages: [user, { role: 'assistant', content: null, tool_calls: [call('c1')] }] }, 'invalid_tool_call', 'messages[1].tool_calls[0]'],
  ['tool call answered only after the next assistant turn', { ...base, messages: [user, { role: 'assistant', tool_calls: [call('c1')] }, { role: 'assistant', content: 'x' }, { role: 'tool', tool_call_id: 'c1', content: 'r' }] }, 'invalid_tool_call', 'messages[1].tool_calls[0]'],
  ['result without call', { ...base, messages: [user, { role: 'tool', tool_call_id: 'nope', content: 'r' }] }, 'invalid_tool_call', 'messages[1].tool_call_id'],
  ['result twice', { ...base, messages: [user, { role: 'assistant', tool_calls: [call('c1')] }, { role: 'tool', tool_call_id: 'c1', content: 'r' }, { role: 'tool', tool_call_id: 'c1', content: 'r' }] }, 'invalid_tool_call', 'messages[3].tool_call_id'],
  ['duplicate call id', { ...base, messages: [user, { role: 'assistant', tool_calls: [call('c1'), call('c1')] }] }, 'invalid_tool_call', 'messages[1].tool_calls[1].id'],
  ['tool call without id', { ...base, messages: [user, { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'f' } }] }] }, 'invalid_tool_call', 'messages[1].tool_calls[0].id'],
  ['tool call without name', { ...base, messages: [user, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: {} }] }] }, 'invalid_tool_call', 'messages[1].tool_calls[0].function.name'],
  ['tool call arguments a number', { ...base, messages: [user, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: 1 } }] }] }, 'invalid_tool_call', 'messages[1].tool_calls[0].function.arguments'],
  ['custom tool call in history', { ...base, messages: [user, { role: 'assistant', tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'g', input: 'x' } }] }] }, 'unsupported_feature', 'messages[1].tool_calls[0].type'],
  ['tool message without tool_call_id', { ...base, messages: [user, { role: 'tool', content: 'r' }] }, 'invalid_tool_call', 'messages[1].tool_call_id'],
  ['function result without call', { ...base, messages: [user, { role: 'function', name: 'f', content: 'r' }] }, 'invalid_tool_call', 'messages[1].name'],
  ['tools not an array', { ...base, tools: {} }, 'invalid_tools', 'tools'],
  ['unknown tool type', { ...base, tools: [{ type: 'web_search' }] }, 'invalid_tools', 'tools[0].type'],
  ['custom tool', { ...base, tools: [{ type: 'custom', custom: { name: 'g' } }] }, 'unsupported_feature', 'tools[0]'],
  ['tool without name', { ...base, tools: [{ type: 'function', function: { description: 'x' } }] }, 'invalid_tools', 'tools[0].function.name'],
  ['tool parameters not an object', { ...base, tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] }, 'invalid_tools', 'tools[0].function.parameters'],
  ['duplicate tool names', { ...base, tools: [...tools, ...tools] }, 'invalid_tools', 'tools'],
  ['tool_choice unknown string', { ...base, tools, tool_choice: 'any' }, 'invalid_tool_choice', 'tool_choice'],
  ['tool_choice names a missing tool', { ...base, tools, tool_choice: { type: 'function', function: { name: 'g' } } }, 'invalid_tool_choice', 'tool_choice'],
  ['tool_choice allowed_tools bad mode', { ...base, tools, tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'any', tools: [] } } }, 'invalid_tool_choice', 'tool_choice.allowed_tools.mode'],
  ['tool_choice allowed_tools unknown tool', { ...base, tools, tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'zzz' } }] } } }, 'invalid_tool_choice', 'tool_choice.allowed_tools.tools[0]'],
  ['tool_choice custom', { ...base, tools, tool_choice: { type: 'custom', custom: { name: 'g' } } }, 'unsupported_feature', 'tool_choice'],
  ['parallel_tool_calls not boolean', { ...base, parallel_tool_calls: 'yes' }, 'invalid_request', 'parallel_tool_calls'],
  ['response_format unknown type', { ...base, response_format: { type: 'yaml' } }, 'invalid_response_format', 'response_format.type'],
  ['verbosity unknown', { ...base, verbosity: 'chatty' }, 'invalid_request', 'verbosity'],
  ['json_schema without json_schema', { ...base, response_format: { type: 'json_schema' } }, 'invalid_response_format', 'response_format.json_schema'],
  ['reasoning_effort unknown', { ...base, reasoning_effort: 'extreme' }, 'invalid_reasoning', 'reasoning_effort'],
  ['reasoning_effort upper case', { ...base, reasoning_effort: 'HIGH' }, 'invalid_reasoning', 'reasoning_effort'],
  ['reasoning_effort a number', { ...base, reasoning_effort: 3 }, 'invalid_reasoning', 'reasoning_effort'],
  ['reasoning.effort unknown', { ...base, reasoning: { effort: 'turbo' } }, 'invalid_reasoning', 'reasoning.effort'],
  ['max_tokens zero', { ...base, max_tokens: 0 }, 'invalid_max_tokens', 'max_tokens'],
  ['max_tokens negative', { ...base, max_tokens: -5 }, 'invalid_max_tokens', 'max_tokens'],
  ['max_tokens fractional', { ...base, max_tokens: 10.5 }, 'invalid_max_tokens', 'max_tokens'],
  ['max_tokens absurd', { ...base, max_tokens: 10_000_001 }, 'invalid_max_tokens', 'max_tokens'],
  ['max_completion_tokens a string', { ...base, max_completion_tokens: '100' }, 'invalid_max_tokens', 'max_completion_tokens'],
  ['temperature out of range', { ...base, temperature: 2.5 }, 'invalid_request', 'temperature'],
  ['top_p out of range', { ...base, top_p: -0.1 }, 'invalid_request', 'top_p'],
  ['n zero', { ...base, n: 0 }, 'invalid_request', 'n'],
  ['stop with a number', { ...base, stop: ['a', 1] }, 'invalid_request', 'stop'],
  ['metadata value not a string', { ...base, metadata: { a: 1 } }, 'invalid_request', 'metadata.a'],
  ['stream not boolean', { ...base, stream: 'true' }, 'invalid_request', 'stream'],
  ['stream_options.include_usage not boolean', { ...base, stream: true, stream_options: { include_usage: 'yes' } }, 'invalid_request', 'stream_options.include_usage'],
  ['audio output', { ...base, modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }, 'unsupported_feature', 'modalities'],
  ['web_search_options not an object', { ...base, web_search_options: true }, 'invalid_request', 'web_search_options'],
  ['web_search_options context size unknown', { ...base, web_search_options: { search_context_size: 'huge' } }, 'invalid_request', 'web_search_options.search_context_size'],
  ['web_search_options location not an object', { ...base, web_search_options: { user_location: 'Paris' } }, 'invalid_request', 'web_search_options.user_location'],
  ['web_search_options city not a string', { ...base, web_search_options: { user_location: { type: 'approximate', approximate: { city: 1 } } } }, 'invalid_request', 'web_search_options.user_location.approximate.city'],
  [
    'web_search_options beside a function named web_search',
    { ...base, web_search_options: {}, tools: [{ type: 'function', function: { name: 'web_search', parameters: { type: 'object' } } }] },
    'invalid_request',
    'tools',
  ],
];

describe('chat request validation', () => {
  for (const [name, body, code, param] of CASES) {
    it(`${name} → 400 ${code}`, () => {
      const err = errorOf(body);
      expect(err.status).toBe(400);
      expect(err.code).toBe(code);
      expect(err.param).toBe(param);
      expect(err.message.length).toBeGreaterThan(10);
    });
  }

  it('web_search_options is the hub’s web search tool, after the functions; the location and the context size kept', () => {
    const fn = { type: 'function', function: { name: 'read', parameters: { type: 'object' } } };
    const req = chatCodec.decodeRequest({
      ...base,
      tools: [fn],
      web_search_options: { search_context_size: 'high', user_location: { type: 'approximate', approximate: { city: 'Zürich', country: 'CH', region: null } } },
    });
    expect(req.tools).toEqual([
      { type: 'function', name: 'read', parameters: { type: 'object' } },
      { type: 'web_search', name: 'web_search', userLocation: { city: 'Zürich', country: 'CH' }, contextSize: 'high' },
    ]);
    expect(chatCodec.decodeRequest({ ...base, web_search_options: {} }).tools).toEqual([{ type: 'web_search', name: 'web_search' }]);
    expect(chatCodec.decodeRequest({ ...base, web_search_options: null }).tools).toEqual([]);
  });

  it('error messages name the offending id but never echo long client values', () => {
    const err = errorOf({ ...base, reasoning_effort: 'x'.repeat(5000) });
    expect(err.message.length).toBeLessThan(200);
  });

  it('accepts every effort value; minimal reads as low; null means unset', () => {
    for (const effort of ['none', 'low', 'medium', 'high', 'xhigh', 'max']) {
      expect(chatCodec.decodeRequest({ ...base, reasoning_effort: effort }).reasoning).toEqual({ effort });
    }
    expect(chatCodec.decodeRequest({ ...base, reasoning_effort: 'minimal' }).reasoning).toEqual({ effort: 'low' });
    expect(chatCodec.decodeRequest({ ...base, reasoning_effort: null }).reasoning).toBeUndefined();
  });

  it('max_tokens at the limit, either field, is accepted', () => {
    expect(chatCodec.decodeRequest({ ...base, max_tokens: 10_000_000 }).maxOutputTokens).toBe(10_000_000);
    expect(chatCodec.decodeRequest({ ...base, max_completion_tokens: 1 }).maxOutputTokens).toBe(1);
  });

  it('keeps tool results in order between calls and the next user turn', () => {
    const hub = chatCodec.decodeRequest({
      ...base,
      messages: [user, { role: 'assistant', tool_calls: [call('a'), call('b')] }, { role: 'tool', tool_call_id: 'b', content: 'rb' }, { role: 'tool', tool_call_id: 'a', content: 'ra' }, user],
    });
    expect(hub.items.map((i) => (i.type === 'function_call_output' ? `out:${i.callId}` : i.type))).toEqual(['message', 'function_call', 'function_call', 'out:b', 'out:a', 'message']);
  });

  it('a __proto__ metadata key is kept as data, not as a prototype', () => {
    const hub = chatCodec.decodeRequest(JSON.parse('{"model":"a/b","messages":[{"role":"user","content":"x"}],"metadata":{"__proto__":"v","k":"w"}}'));
    expect(Object.keys(hub.metadata!)).toEqual(['__proto__', 'k']);
    expect(Object.getPrototypeOf(hub.metadata)).toBe(Object.prototype);
  });

  it('wantsStreamUsage reads stream_options.include_usage', () => {
    expect(wantsStreamUsage({ stream_options: { include_usage: true } })).toBe(true);
    expect(wantsStreamUsage({ stream_options: { include_usage: false } })).toBe(false);
    expect(wantsStreamUsage({})).toBe(false);
    expect(wantsStreamUsage(null)).toBe(false);
  });
});
