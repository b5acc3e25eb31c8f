import { describe, expect, it } from 'vitest';
import { customChatAdapter } from '../../src/providers/custom-chat.js';
import { customMessagesAdapter } from '../../src/providers/custom-messages.js';
import { geminiAdapter } from '../../src/providers/gemini.js';
import { localAdapter } from '../../src/providers/local.js';
import { openaiAdapter } from '../../src/providers/openai.js';
import { openrouterAdapter } from '../../src/providers/openrouter.js';
import type { Effort } from '../../src/protocols/hub.js';
import { scanTopLevelMembers } from '../../src/protocols/json-members.js';
import { LAZY_MEMBER_BYTES, lazyJsonBody, unparsedMember } from '../../src/protocols/lazy-json.js';
import type { FinalizeContext, ProviderAdapter } from '../../src/providers/types.js';

function run(adapter: ProviderAdapter, body: Record<string, unknown>, ctx: Partial<FinalizeContext> & { model: string }) {
  const out = structuredClone(body);
  const res = adapter.finalizeBody(out, { from: 'chat', passthrough: false, stream: false, ...ctx });
  return { body: out, effortSent: res.effortSent };
}

const chatBody = () => ({ model: 'm', messages: [{ role: 'developer', content: 'be brief' }, { role: 'user', content: 'hi' }] });

describe('openai (Responses) finalizeBody', () => {
  const table: Array<[string, Effort, string | undefined]> = [
    ['gpt-5.4', 'xhigh', 'xhigh'],
    ['gpt-5.4', 'max', 'xhigh'],
    ['gpt-5.4', 'low', 'low'],
    ['gpt-5', 'xhigh', 'high'],
    ['gpt-5.1-codex-max', 'xhigh', 'xhigh'],
    ['o3', 'max', 'high'],
    ['gpt-5-pro', 'low', 'high'],
    ['gpt-5.4', 'none', undefined],
  ];
  for (const [model, effort, expected] of table) {
    it(`${effort} to ${model} → ${expected ?? 'no effort field'}`, () => {
      const { body, effortSent } = run(openaiAdapter, { model, input: 'hi', reasoning: { effort: 'medium', summary: 'auto' } }, { model, effort, from: 'responses', passthrough: true });
      expect((body.reasoning as Record<string, unknown>).effort).toBe(expected);
      expect((body.reasoning as Record<string, unknown>).summary).toBe('auto');
      expect(effortSent).toBe(expected);
    });
  }

  it('none leaves no reasoning object behind when effort was all it held', () => {
    const { body } = run(openaiAdapter, { model: 'gpt-5.4', input: 'hi', reasoning: { effort: 'high' } }, { model: 'gpt-5.4', effort: 'none' });
    expect(body).not.toHaveProperty('reasoning');
  });

  it('adds reasoning.effort when the body had none', () => {
    const { body } = run(openaiAdapter, { model: 'gpt-5.4', input: 'hi' }, { model: 'gpt-5.4', effort: 'medium' });
    expect(body.reasoning).toEqual({ effort: 'medium' });
  });

  it('non-reasoning models get no reasoning settings in a converted request', () => {
    const { body, effortSent } = run(
      openaiAdapter,
      { model: 'gpt-4.1', input: 'hi', store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'high', summary: 'auto' } },
      { model: 'gpt-4.1', effort: 'high' },
    );
    expect(body).not.toHaveProperty('reasoning');
    expect(body).not.toHaveProperty('include');
    expect(body.store).toBe(false);
    expect(effortSent).toBeUndefined();
  });

  it('with store: false, drops item ids OpenAI would look up in vain, and bare reasoning references', () => {
    const input = [
      { role: 'user', content: 'q' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' },
      { type: 'function_call', id: 'fc_01ab_1', call_id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
      { type: 'reasoning', id: 'rs_2', summary: [] },
      { type: 'message', id: 'msg_01ab_2', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
    ];
    const stateless = run(openaiAdapter, { model: 'gpt-5.4', store: false, input }, { model: 'gpt-5.4', from: 'responses', passthrough: true }).body;
    expect(stateless.input).toEqual([
      { role: 'user', content: 'q' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
    ]);
    // stored conversations keep their ids: OpenAI can resolve those
    const stored = run(openaiAdapter, { model: 'gpt-5.4', input }, { model: 'gpt-5.4', from: 'responses', passthrough: true }).body;
    expect(stored.input).toEqual(input);
  });

  it('passes hosted tools, does not take input_audio', () => {
    expect(openaiAdapter.accepts).toEqual({ inputAudio: false, hostedTools: true, webSearch: true, transcriptions: false });
    expect(openaiAdapter.encodeOptions('gpt-5').replayReasoning).toEqual(['openai']);
  });
});

describe('openrouter finalizeBody', () => {
  it('effort goes into the reasoning object and reasoning_effort is removed', () => {
    const { body, effortSent } = run(openrouterAdapter, { ...chatBody(), reasoning_effort: 'high' }, { model: 'anthropic/claude-sonnet-4.5', effort: 'high' });
    expect(body.reasoning).toEqual({ effort: 'high' });
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(effortSent).toBe('high');
  });

  it('none → enabled:false', () => {
    const { body, effortSent } = run(openrouterAdapter, { ...chatBody(), reasoning_effort: 'none' }, { model: 'x/y', effort: 'none' });
    expect(body.reasoning).toEqual({ enabled: false });
    expect(effortSent).toBe('none');
  });

  it('max is lowered to xhigh; exclude is kept, max_tokens dropped', () => {
    const { body } = run(openrouterAdapter, { ...chatBody(), reasoning: { max_tokens: 100, exclude: true } }, { model: 'x/y', effort: 'max' });
    expect(body.reasoning).toEqual({ exclude: true, effort: 'xhigh' });
  });

  it('developer role becomes system', () => {
    const { body } = run(openrouterAdapter, chatBody(), { model: 'x/y' });
    expect((body.messages as Array<{ role: string }>)[0]!.role).toBe('system');
  });

  it('no effort: a client reasoning object is kept', () => {
    const { body } = run(openrouterAdapter, { ...chatBody(), reasoning: { effort: 'low' } }, { model: 'x/y', passthrough: true });
    expect(body.reasoning).toEqual({ effort: 'low' });
  });

  it('replays openrouter details and unsigned reasoning; takes audio', () => {
    expect(openrouterAdapter.encodeOptions('x').replayReasoning).toEqual(['openrouter', 'unsigned']);
    expect(openrouterAdapter.accepts.inputAudio).toBe(true);
  });
});

describe('gemini finalizeBody', () => {
  const table: Array<[string, Effort, string]> = [
    ['gemini-2.5-flash', 'xhigh', 'high'],
    ['gemini-2.5-flash', 'max', 'high'],
    ['gemini-2.5-flash', 'medium', 'medium'],
    ['gemini-2.5-flash', 'none', 'none'],
    ['gemini-2.5-pro', 'none', 'low'],
    ['gemini-3-pro-preview', 'none', 'low'],
  ];
  for (const [model, effort, expected] of table) {
    it(`${effort} to ${model} → ${expected}`, () => {
      const { body, effortSent } = run(geminiAdapter, { ...chatBody(), reasoning_effort: effort }, { model, effort });
      expect(body.reasoning_effort).toBe(expected);
      expect(effortSent).toBe(expected);
    });
  }

  it('strips the models/ prefix from the body model', () => {
    const { body } = run(geminiAdapter, { ...chatBody(), model: 'models/gemini-2.5-flash' }, { model: 'models/gemini-2.5-flash' });
    expect(body.model).toBe('gemini-2.5-flash');
    expect(geminiAdapter.normaliseModelId('models/gemini-2.5-flash')).toBe('gemini-2.5-flash');
    expect(geminiAdapter.normaliseModelId('gemini-2.5-flash')).toBe('gemini-2.5-flash');
  });

  it('sanitises tool and response_format schemas', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false, properties: { a: { type: 'string', const: 'x' }, n: { type: 'number', exclusiveMinimum: 0 } }, required: ['a'] };
    const { body } = run(
      geminiAdapter,
      {
        ...chatBody(),
        tools: [{ type: 'function', function: { name: 'f', parameters: schema } }, { type: 'function', function: { name: 'g', parameters: { type: 'object', properties: {}, additionalProperties: false } } }],
        response_format: { type: 'json_schema', json_schema: { name: 'r', schema, strict: true } },
      },
      { model: 'gemini-2.5-flash' },
    );
    const expected = { type: 'object', properties: { a: { type: 'string', enum: ['x'] }, n: { type: 'number' } }, required: ['a'] };
    const tools = body.tools as Array<{ function: Record<string, unknown> }>;
    expect(tools[0]!.function.parameters).toEqual(expected);
    expect(tools[1]!.function).not.toHaveProperty('parameters');
    expect(((body.response_format as Record<string, unknown>).json_schema as Record<string, unknown>).schema).toEqual(expected);
  });

  it('effort replaces a thinking_config (they are mutually exclusive) and drops OpenAI-only params', () => {
    const { body } = run(geminiAdapter, { ...chatBody(), store: true, metadata: { a: 'b' }, top_k: 3, cache_control: { type: 'ephemeral' }, reasoning: { effort: 'low' }, extra_body: { google: { thinking_config: { thinking_budget: 100 } } } }, { model: 'gemini-2.5-flash', effort: 'low' });
    expect(body).not.toHaveProperty('extra_body');
    expect(body).not.toHaveProperty('store');
    expect(body).not.toHaveProperty('metadata');
    for (const k of ['top_k', 'cache_control', 'reasoning']) expect(body).not.toHaveProperty(k);
  });

  it('drops the null refusal OpenAI SDKs leave on assistant history (Gemini answers 400 to it)', () => {
    const messages = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'assistant', content: 'no', refusal: 'I will not.' },
    ];
    const { body } = run(geminiAdapter, { model: 'm', messages }, { model: 'gemini-2.5-flash' });
    const out = body.messages as Array<Record<string, unknown>>;
    expect(out[1]).not.toHaveProperty('refusal');
    expect(out[1]!.tool_calls).toEqual(messages[1]!.tool_calls);
    expect(out[3]!.refusal).toBe('I will not.');
  });

  it('echoes thought signatures, replays no reasoning, takes audio', () => {
    const opts = geminiAdapter.encodeOptions('gemini-3-pro-preview');
    expect(opts.thoughtSignatures).toBe(true);
    expect(opts.replayReasoning).toEqual([]);
    expect(opts.systemRole).toBe('system');
    expect(geminiAdapter.accepts.inputAudio).toBe(true);
    expect(geminiAdapter.highestEffort).toBe('high');
  });
});

describe('custom endpoint format a finalizeBody', () => {
  it.each(['max', 'xhigh', 'none', 'low'] as Effort[])('%s is sent as given', (effort) => {
    const { body, effortSent } = run(customChatAdapter, chatBody(), { model: 'x', effort });
    expect(body.reasoning_effort).toBe(effort);
    expect(effortSent).toBe(effort);
  });

  it('never lowers, forwards transcriptions, developer → system', () => {
    expect(customChatAdapter.highestEffort).toBeNull();
    expect(customChatAdapter.accepts.transcriptions).toBe(true);
    const { body } = run(customChatAdapter, chatBody(), { model: 'x' });
    expect((body.messages as Array<{ role: string }>)[0]!.role).toBe('system');
    expect(body).not.toHaveProperty('reasoning_effort');
  });
});

describe('local and custom format a: plain reasoning sent back in reasoning_content', () => {
  const history = () => ({
    model: 'm',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, reasoning_content: 'thought', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'assistant', content: 'done', reasoning_content: 'mine', reasoning: 'theirs' },
    ],
  });

  it.each([
    ['local', localAdapter],
    ['custom-a', customChatAdapter],
  ] as const)('%s: also goes in `reasoning`, which vLLM ≥0.16 reads; a message with its own is left alone', (_, adapter) => {
    const { body } = run(adapter, history(), { model: 'm', passthrough: true });
    const out = body.messages as Array<Record<string, unknown>>;
    expect(out[1]).toMatchObject({ reasoning: 'thought', reasoning_content: 'thought' });
    expect(out[3]).toMatchObject({ reasoning: 'theirs', reasoning_content: 'mine' });
    expect(out[0]).not.toHaveProperty('reasoning');
  });

  it('a long conversation without it stays unparsed', () => {
    const raw = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(LAZY_MEMBER_BYTES) }, { role: 'assistant', content: 'hi', reasoning: 'r' }] }));
    const body = lazyJsonBody(raw, scanTopLevelMembers(raw)!);
    localAdapter.finalizeBody(body, { model: 'm', from: 'chat', passthrough: true, stream: false });
    expect(unparsedMember(body, 'messages')).toBeDefined();
  });

  it('OpenRouter and Gemini bodies are not touched', () => {
    for (const adapter of [openrouterAdapter, geminiAdapter]) {
      const { body } = run(adapter, history(), { model: 'gemini-2.5-flash', passthrough: true });
      expect((body.messages as Array<Record<string, unknown>>)[1]).not.toHaveProperty('reasoning');
    }
  });
});

describe('custom endpoint format b finalizeBody', () => {
  it('from protocol A no effort is sent', () => {
    const { body, effortSent } = run(customMessagesAdapter, { model: 'glm', max_tokens: 10, messages: [], thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }, { model: 'glm', effort: 'high', from: 'chat' });
    expect(body).not.toHaveProperty('thinking');
    expect(body).not.toHaveProperty('output_config');
    expect(effortSent).toBeUndefined();
  });

  it('from protocol B thinking settings pass through unchanged', () => {
    const sent = { model: 'glm', max_tokens: 10, messages: [], thinking: { type: 'enabled', budget_tokens: 50000 }, output_config: { effort: 'max' }, tool_choice: { type: 'any' } };
    const { body, effortSent } = run(customMessagesAdapter, sent, { model: 'glm', effort: 'max', from: 'messages', passthrough: true });
    expect(body).toEqual(sent);
    expect(effortSent).toBe('max');
  });

  it('from protocol B a thinking type the gateway’s list states the model refuses is fitted (between_tools → left out); as sent where its list states none', () => {
    const sent = () => ({ model: 'claude-opus-4-7', max_tokens: 10, messages: [], thinking: { type: 'between_tools' } });
    const ctx = { model: 'claude-opus-4-7', from: 'messages' as const, passthrough: true };
    expect(run(customMessagesAdapter, sent(), { ...ctx, stated: { thinking: 'adaptive-only', refusesBetweenTools: true } }).body).not.toHaveProperty('thinking');
    expect(run(customMessagesAdapter, sent(), { ...ctx, stated: { thinking: 'adaptive-only' } }).body.thinking).toEqual({ type: 'between_tools' });
    expect(run(customMessagesAdapter, sent(), ctx).body.thinking).toEqual({ type: 'between_tools' });
  });

  it('rejects input_audio; sane default max_tokens for foreign models', () => {
    expect(customMessagesAdapter.accepts.inputAudio).toBe(false);
    expect(customMessagesAdapter.encodeOptions('glm-4.6').defaultMaxTokens).toBe(8192);
    expect(customMessagesAdapter.encodeOptions('claude-sonnet-4-5').defaultMaxTokens).toBe(64000);
  });
});

describe('local finalizeBody', () => {
  it('effort as given, OpenAI-only params dropped, max_tokens used, developer → system', () => {
    const { body, effortSent } = run(
      localAdapter,
      { ...chatBody(), store: true, metadata: { a: 'b' }, service_tier: 'auto', prompt_cache_key: 'k', safety_identifier: 'u', max_completion_tokens: 300 },
      { model: 'llama3', effort: 'max', passthrough: true },
    );
    expect(body.reasoning_effort).toBe('max');
    expect(effortSent).toBe('max');
    for (const k of ['store', 'metadata', 'service_tier', 'prompt_cache_key', 'safety_identifier', 'max_completion_tokens']) expect(body).not.toHaveProperty(k);
    expect(body.max_tokens).toBe(300);
    expect((body.messages as Array<{ role: string }>)[0]!.role).toBe('system');
  });

  it('codec options: system role (mid-conversation ones in place), max_tokens, unsigned replay (also in reasoning_content)', () => {
    expect(localAdapter.encodeOptions('x')).toEqual({ replayReasoning: ['unsigned'], reasoningContentToo: true, systemRole: 'system', systemInPlace: true, maxTokensField: 'max_tokens' });
    expect(localAdapter.highestEffort).toBeNull();
  });
});
