import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/protocols/errors.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { fixtureNames, jsonFixture } from './fixtures.js';

describe('responses decodeRequest: golden fixtures', () => {
  for (const name of fixtureNames('request-decode')) {
    it(name, () => {
      const fx = jsonFixture<{ request: unknown; expected: unknown }>('request-decode', `${name}.json`);
      expect(responsesCodec.decodeRequest(fx.request)).toEqual(fx.expected);
    });
  }
});

function errorOf(body: unknown): ProtocolError {
  try {
    responsesCodec.decodeRequest(body);
  } catch (err) {
    expect(err).toBeInstanceOf(ProtocolError);
    return err as ProtocolError;
  }
  throw new Error('expected decodeRequest to throw');
}

const user = { role: 'user', content: 'hi' };

describe('responses decodeRequest: clean 400s', () => {
  const cases: Array<[string, unknown, string, string | undefined]> = [
    ['body not an object', [1, 2], 'invalid_request', undefined],
    ['model missing', { input: 'hi' }, 'invalid_model', 'model'],
    ['model empty', { model: '', input: 'hi' }, 'invalid_model', 'model'],
    ['input missing', { model: 'm/x' }, 'invalid_input', 'input'],
    ['input empty string', { model: 'm/x', input: '' }, 'invalid_input', 'input'],
    ['input empty list', { model: 'm/x', input: [] }, 'invalid_input', 'input'],
    ['only system messages', { model: 'm/x', input: [{ role: 'system', content: 'x' }] }, 'invalid_input', 'input'],
    ['only reasoning', { model: 'm/x', input: [{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 't' }] }] }, 'invalid_input', 'input'],
    ['input a number', { model: 'm/x', input: 3 }, 'invalid_input', 'input'],
    ['item not an object', { model: 'm/x', input: ['hi'] }, 'invalid_input', 'input[0]'],
    ['bad role', { model: 'm/x', input: [{ role: 'tool', content: 'x' }] }, 'invalid_input', 'input[0].role'],
    ['unknown item type', { model: 'm/x', input: [{ type: 'banana' }] }, 'invalid_input', 'input[0].type'],
    ['content a number', { model: 'm/x', input: [{ role: 'user', content: 5 }] }, 'invalid_content_part', 'input[0].content'],
    ['unknown part', { model: 'm/x', input: [{ role: 'user', content: [{ type: 'video' }] }] }, 'invalid_content_part', 'input[0].content[0].type'],
    ['image in system', { model: 'm/x', input: [user, { role: 'system', content: [{ type: 'input_image', image_url: 'https://a/b.png' }] }] }, 'invalid_content_part', 'input[1].content[0].type'],
    ['refusal from user', { model: 'm/x', input: [{ role: 'user', content: [{ type: 'refusal', refusal: 'no' }] }] }, 'invalid_content_part', 'input[0].content[0].type'],
    ['image in assistant', { model: 'm/x', input: [user, { role: 'assistant', content: [{ type: 'input_image', image_url: 'https://a/b.png' }] }] }, 'invalid_content_part', 'input[1].content[0].type'],
    ['text not a string', { model: 'm/x', input: [{ role: 'user', content: [{ type: 'input_text', text: 1 }] }] }, 'invalid_content_part', 'input[0].content[0].text'],
    ['image without source', { model: 'm/x', input: [{ role: 'user', content: [{ type: 'input_image', detail: 'auto' }] }] }, 'invalid_image', 'input[0].content[0]'],
    ['image ftp url', { model: 'm/x', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://x/y.png' }] }] }, 'invalid_image', 'input[0].content[0].image_url'],
    ['image data url not base64', { model: 'm/x', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png,abc' }] }] }, 'invalid_image', 'input[0].content[0].image_url'],
    ['image data url garbage', { model: 'm/x', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,%%%' }] }] }, 'invalid_image', 'input[0].content[0].image_url'],
    ['file without source', { model: 'm/x', input: [{ role: 'user', content: [{ type: 'input_file', filename: 'a.pdf' }] }] }, 'invalid_content_part', 'input[0].content[0]'],
    ['file bad data url', { model: 'm/x', input: [{ role: 'user', content: [{ type: 'input_file', file_data: 'data:;x' }] }] }, 'invalid_content_part', 'input[0].content[0].file_data'],
    ['function_call without call_id', { model: 'm/x', input: [user, { type: 'function_call', name: 'f', arguments: '{}' }] }, 'invalid_tool_call', 'input[1].call_id'],
    ['function_call without arguments', { model: 'm/x', input: [user, { type: 'function_call', call_id: 'c', name: 'f' }] }, 'invalid_tool_call', 'input[1].arguments'],
    ['output without call', { model: 'm/x', input: [user, { type: 'function_call_output', call_id: 'c', output: 'x' }] }, 'invalid_tool_call', 'input[1].call_id'],
    ['output before its call', { model: 'm/x', input: [user, { type: 'function_call_output', call_id: 'c', output: 'x' }, { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }] }, 'invalid_tool_call', 'input[1].call_id'],
    ['call never answered', { model: 'm/x', input: [user, { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }, user] }, 'invalid_tool_call', 'input[1].call_id'],
    ['one of two calls answered', { model: 'm/x', input: [user, { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' }, { type: 'function_call', call_id: 'b', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'a', output: 'x' }] }, 'invalid_tool_call', 'input[2].call_id'],
    ['duplicate call ids', { model: 'm/x', input: [user, { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' }, { type: 'function_call', call_id: 'a', name: 'g', arguments: '{}' }] }, 'invalid_tool_call', 'input[2].call_id'],
    ['output a number', { model: 'm/x', input: [user, { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'a', output: 1 }] }, 'invalid_tool_call', 'input[2].output'],
    ['audio in tool output', { model: 'm/x', input: [user, { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'a', output: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] }] }, 'invalid_content_part', 'input[2].output[0].type'],
    ['item_reference', { model: 'm/x', input: [user, { type: 'item_reference', id: 'msg_1' }] }, 'unsupported_feature', 'input[1]'],
    ['hosted tool call item', { model: 'm/x', input: [user, { type: 'file_search_call', id: 'fs_1', status: 'completed', queries: [] }] }, 'unsupported_feature', 'input[1].type'],
    ['custom tool call without input', { model: 'm/x', input: [user, { type: 'custom_tool_call', call_id: 'c', name: 'x' }] }, 'invalid_tool_call', 'input[1].input'],
    ['custom tool call input not a string', { model: 'm/x', input: [user, { type: 'custom_tool_call', call_id: 'c', name: 'x', input: { patch: 'p' } }] }, 'invalid_tool_call', 'input[1].input'],
    ['custom tool call without call_id', { model: 'm/x', input: [user, { type: 'custom_tool_call', name: 'x', input: '' }] }, 'invalid_tool_call', 'input[1].call_id'],
    ['custom output without call', { model: 'm/x', input: [user, { type: 'custom_tool_call_output', call_id: 'c', output: 'x' }] }, 'invalid_tool_call', 'input[1].call_id'],
    ['custom call never answered', { model: 'm/x', input: [user, { type: 'custom_tool_call', call_id: 'c', name: 'x', input: 'p' }, user] }, 'invalid_tool_call', 'input[1].call_id'],
    ['custom tool without name', { model: 'm/x', input: 'hi', tools: [{ type: 'custom' }] }, 'invalid_request', 'tools[0].name'],
    ['custom tool format not an object', { model: 'm/x', input: 'hi', tools: [{ type: 'custom', name: 'p', format: 'text' }] }, 'invalid_request', 'tools[0].format'],
    ['custom tool format unknown', { model: 'm/x', input: 'hi', tools: [{ type: 'custom', name: 'p', format: { type: 'json' } }] }, 'invalid_request', 'tools[0].format.type'],
    ['custom tool grammar syntax unknown', { model: 'm/x', input: 'hi', tools: [{ type: 'custom', name: 'p', format: { type: 'grammar', syntax: 'ebnf', definition: 'x' } }] }, 'invalid_request', 'tools[0].format.syntax'],
    ['custom tool grammar without definition', { model: 'm/x', input: 'hi', tools: [{ type: 'custom', name: 'p', format: { type: 'grammar', syntax: 'lark' } }] }, 'invalid_request', 'tools[0].format.definition'],
    ['tools not a list', { model: 'm/x', input: 'hi', tools: {} }, 'invalid_request', 'tools'],
    ['tool without type', { model: 'm/x', input: 'hi', tools: [{ name: 'f' }] }, 'invalid_request', 'tools[0].type'],
    ['function tool without name', { model: 'm/x', input: 'hi', tools: [{ type: 'function' }] }, 'invalid_request', 'tools[0].name'],
    ['function parameters not an object', { model: 'm/x', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: 'x' }] }, 'invalid_request', 'tools[0].parameters'],
    ['tool_choice bad string', { model: 'm/x', input: 'hi', tool_choice: 'any' }, 'invalid_request', 'tool_choice'],
    ['tool_choice required without tools', { model: 'm/x', input: 'hi', tool_choice: 'required' }, 'invalid_tool_choice', 'tool_choice'],
    ['tool_choice hosted', { model: 'm/x', input: 'hi', tool_choice: { type: 'file_search' } }, 'unsupported_feature', 'tool_choice'],
    ['tool_choice custom without name', { model: 'm/x', input: 'hi', tool_choice: { type: 'custom' } }, 'invalid_request', 'tool_choice.name'],
    ['allowed_tools custom without name', { model: 'm/x', input: 'hi', tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'custom' }] } }, 'invalid_request', 'tool_choice.tools[0].name'],
    ['allowed_tools bad mode', { model: 'm/x', input: 'hi', tool_choice: { type: 'allowed_tools', mode: 'any', tools: [] } }, 'invalid_request', 'tool_choice.mode'],
    ['parallel not boolean', { model: 'm/x', input: 'hi', parallel_tool_calls: 'yes' }, 'invalid_request', 'parallel_tool_calls'],
    ['format unknown', { model: 'm/x', input: 'hi', text: { format: { type: 'xml' } } }, 'invalid_request', 'text.format.type'],
    ['json_schema without schema', { model: 'm/x', input: 'hi', text: { format: { type: 'json_schema', name: 'a' } } }, 'invalid_request', 'text.format.schema'],
    ['json_schema without name', { model: 'm/x', input: 'hi', text: { format: { type: 'json_schema', schema: {} } } }, 'invalid_request', 'text.format.name'],
    ['bad verbosity', { model: 'm/x', input: 'hi', text: { verbosity: 'loud' } }, 'invalid_request', 'text.verbosity'],
    ['max_output_tokens zero', { model: 'm/x', input: 'hi', max_output_tokens: 0 }, 'invalid_max_tokens', 'max_output_tokens'],
    ['max_output_tokens fraction', { model: 'm/x', input: 'hi', max_output_tokens: 10.5 }, 'invalid_max_tokens', 'max_output_tokens'],
    ['max_output_tokens string', { model: 'm/x', input: 'hi', max_output_tokens: '100' }, 'invalid_max_tokens', 'max_output_tokens'],
    ['temperature too high', { model: 'm/x', input: 'hi', temperature: 3 }, 'invalid_request', 'temperature'],
    ['top_p string', { model: 'm/x', input: 'hi', top_p: '1' }, 'invalid_request', 'top_p'],
    ['effort unknown', { model: 'm/x', input: 'hi', reasoning: { effort: 'extreme' } }, 'invalid_reasoning', 'reasoning.effort'],
    ['effort number', { model: 'm/x', input: 'hi', reasoning: { effort: 3 } }, 'invalid_reasoning', 'reasoning.effort'],
    ['summary unknown', { model: 'm/x', input: 'hi', reasoning: { summary: 'long' } }, 'invalid_reasoning', 'reasoning.summary'],
    ['reasoning not an object', { model: 'm/x', input: 'hi', reasoning: 'high' }, 'invalid_reasoning', 'reasoning'],
    ['metadata value not string', { model: 'm/x', input: 'hi', metadata: { a: 1 } }, 'invalid_request', 'metadata.a'],
    ['stored prompt', { model: 'm/x', input: 'hi', prompt: { id: 'pmpt_1' } }, 'unsupported_feature', 'prompt'],
    ['stream not boolean', { model: 'm/x', input: 'hi', stream: 'true' }, 'invalid_request', 'stream'],
    ['instructions not string', { model: 'm/x', input: 'hi', instructions: ['x'] }, 'invalid_request', 'instructions'],
  ];
  for (const [name, body, code, param] of cases) {
    it(name, () => {
      const err = errorOf(body);
      expect(err.status).toBe(400);
      expect(err.code).toBe(code);
      expect(err.param).toBe(param);
      expect(err.message.length).toBeGreaterThan(10);
    });
  }
});

describe('responses decodeRequest: details', () => {
  it("reads OpenAI's web search (every spelling) as the hub's, its forcing choices too; a past search in the input is left out", () => {
    const decode = (body: Record<string, unknown>) => responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', ...body });
    const tool = { type: 'web_search', search_context_size: 'high', filters: { allowed_domains: ['a.org'] }, user_location: { type: 'approximate', city: 'Bern', country: 'CH', region: null } };
    expect(decode({ tools: [tool] }).tools).toEqual([{ type: 'web_search', name: 'web_search', allowedDomains: ['a.org'], userLocation: { city: 'Bern', country: 'CH' } }]);
    for (const type of ['web_search_preview', 'web_search_2025_08_26', 'web_search_preview_2025_03_11']) expect(decode({ tools: [{ type }] }).tools).toEqual([{ type: 'web_search', name: 'web_search' }]);
    expect(decode({ tools: [{ type: 'web_search_latest' }] }).tools).toEqual([{ type: 'hosted', raw: { type: 'web_search_latest' } }]);
    expect(() => decode({ tools: [{ type: 'web_search', filters: { allowed_domains: 'a.org' } }] })).toThrow(ProtocolError);
    expect(decode({ tools: [tool], tool_choice: { type: 'web_search_preview' } }).toolChoice).toEqual({ type: 'function', name: 'web_search' });
    expect(decode({ tools: [tool], tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] } }).toolChoice).toEqual({ type: 'allowed_tools', mode: 'required', names: ['web_search'] });
    const searched = decode({ input: [{ role: 'user', content: 'q' }, { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Found.' }] }] });
    expect(searched.items.map((i) => i.type)).toEqual(['message', 'message']);
  });

  it('accepts every effort value and reads minimal as low', () => {
    const efforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];
    const got = efforts.map((effort) => responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', reasoning: { effort } }).reasoning?.effort);
    expect(got).toEqual(['none', 'low', 'low', 'medium', 'high', 'xhigh', 'max']);
  });

  it('flags conversation and background as stateful features', () => {
    expect(responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', conversation: 'conv_1' }).statefulFeature).toBe('conversation');
    expect(responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', background: true }).statefulFeature).toBe('background');
    expect(responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', background: false }).statefulFeature).toBeUndefined();
    // No input at all is fine when the history lives upstream: routing reports the feature instead.
    expect(responsesCodec.decodeRequest({ model: 'm/x', previous_response_id: 'resp_1' }).statefulFeature).toBe('previous_response_id');
  });

  it('uses user when no safety_identifier is given, and reads generate_summary', () => {
    const req = responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', user: 'u1', reasoning: { generate_summary: 'concise' } });
    expect(req.user).toBe('u1');
    expect(req.reasoning).toEqual({ summary: 'concise' });
  });

  it('drops reasoning: {} and null options instead of inventing values', () => {
    const req = responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', reasoning: {}, temperature: null, tools: null, text: { format: null } });
    expect(req.reasoning).toBeUndefined();
    expect(req.temperature).toBeUndefined();
    expect(req.responseFormat).toBeUndefined();
    expect(req.tools).toEqual([]);
  });

  it('keeps a function_call_output whose output is a file', () => {
    const req = responsesCodec.decodeRequest({
      model: 'm/x',
      input: [
        user,
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_file', file_url: 'https://x/y.pdf' }] },
      ],
    });
    expect(req.items[2]).toEqual({ type: 'function_call_output', callId: 'c', output: [{ type: 'file', source: { kind: 'url', url: 'https://x/y.pdf' } }] });
  });

  it('reads custom (freeform) tools, their calls and outputs, and choices naming them', () => {
    const grammar = { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' };
    const req = responsesCodec.decodeRequest({
      model: 'm/x',
      tools: [
        { type: 'custom', name: 'apply_patch', description: 'Edit files.', format: grammar },
        { type: 'custom', name: 'note' },
        { type: 'custom', name: 'sql', format: { type: 'text' } },
        { type: 'custom', name: 'ids', format: { type: 'grammar', syntax: 'regex', definition: '^[0-9]+$' } },
      ],
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'custom', name: 'apply_patch' }, { type: 'function', name: 'f' }, { type: 'web_search' }] },
      input: [
        user,
        { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_1', output: 'Done!' },
        { type: 'custom_tool_call', call_id: 'call_2', name: 'note', input: '' },
        { type: 'custom_tool_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'ok' }] },
      ],
    });
    expect(req.tools).toEqual([
      { type: 'function', name: 'apply_patch', description: 'Edit files.', freeform: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' } },
      { type: 'function', name: 'note', freeform: { type: 'text' } },
      { type: 'function', name: 'sql', freeform: { type: 'text' } },
      { type: 'function', name: 'ids', freeform: { type: 'grammar', syntax: 'regex', definition: '^[0-9]+$' } },
    ]);
    expect(req.toolChoice).toEqual({ type: 'allowed_tools', mode: 'required', names: ['apply_patch', 'f', 'web_search'] });
    expect(req.items.slice(1)).toEqual([
      { type: 'function_call', callId: 'call_1', name: 'apply_patch', arguments: '*** Begin Patch\n*** End Patch', freeform: true },
      { type: 'function_call_output', callId: 'call_1', output: 'Done!' },
      { type: 'function_call', callId: 'call_2', name: 'note', arguments: '', freeform: true },
      { type: 'function_call_output', callId: 'call_2', output: [{ type: 'text', text: 'ok' }] },
    ]);
    const forced = responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', tools: [{ type: 'custom', name: 'apply_patch' }], tool_choice: { type: 'custom', name: 'apply_patch' } });
    expect(forced.toolChoice).toEqual({ type: 'function', name: 'apply_patch' });
  });

  it('a custom_tool_call may be answered by a function_call_output (the call_id pairs them), and a namespaced one keeps its namespace', () => {
    const req = responsesCodec.decodeRequest({
      model: 'm/x',
      input: [
        user,
        { type: 'custom_tool_call', call_id: 'c', namespace: 'files', name: 'patch', input: 'x' },
        { type: 'function_call_output', call_id: 'c', output: 'ok' },
      ],
    });
    expect(req.items[1]).toEqual({ type: 'function_call', callId: 'c', name: 'patch', namespace: 'files', arguments: 'x', freeform: true });
  });
});

describe('responses decodeRequest: a call id an earlier, answered call used (Kimi numbers calls per turn)', () => {
  const call = (path: string) => ({ type: 'function_call', call_id: 'list_dir:0', name: 'f', arguments: JSON.stringify({ path }) });
  const output = (text: string) => ({ type: 'function_call_output', call_id: 'list_dir:0', output: text });

  it('is a new call: it and its output get a fresh hub id, the first keeps its own', () => {
    const req = responsesCodec.decodeRequest({ model: 'm/x', input: [user, call('.'), output('a'), user, call('/'), output('b')] });
    const pairs = req.items.flatMap((i) => (i.type === 'function_call' || i.type === 'function_call_output' ? [[i.type, i.callId]] : []));
    expect(pairs).toEqual([
      ['function_call', 'list_dir:0'],
      ['function_call_output', 'list_dir:0'],
      ['function_call', 'list_dir:0_2'],
      ['function_call_output', 'list_dir:0_2'],
    ]);
  });

  it('such a call left unanswered is refused under the id the client sent', () => {
    const err = errorOf({ model: 'm/x', input: [user, call('.'), output('a'), call('/'), user] });
    expect(err.code).toBe('invalid_tool_call');
    expect(err.message).toContain('"list_dir:0"');
    expect(err.message).not.toContain('list_dir:0_2');
  });
});
