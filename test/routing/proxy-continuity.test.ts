/**
 * Reasoning continuity for clients that drop reasoning proof (the reasoning cache), the
 * thinking-off fallback, and tool names longer than 64 characters.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { post, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const weatherTool = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

/** The id and the arguments of a streamed answer's first tool call, as a client assembles them. */
async function firstToolCall(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<{ id: string; args: string }> {
  let id = '';
  let args = '';
  for await (const c of stream) {
    const tc = c.choices[0]?.delta.tool_calls?.[0];
    if (tc?.id) id = tc.id;
    if (tc?.function?.arguments) args += tc.function.arguments;
  }
  return { id, args };
}

describe('Anthropic thinking through a Chat client that drops reasoning fields', () => {
  it('the cached thinking block is put back on the replayed tool-call turn', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const first = await client.chat.completions.create({
      model: 'anthropic/claude-sonnet-4-5',
      reasoning_effort: 'high',
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'weather in Paris?' }],
    });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(h.mocks.anthropic.lastGeneration().body.thinking).toMatchObject({ type: 'enabled' });
    // a typical client: keeps only role/content/tool_calls of the assistant message
    const second = await client.chat.completions.create({
      model: 'anthropic/claude-sonnet-4-5',
      reasoning_effort: 'high',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '21°C' },
      ],
    });
    expect(second.choices[0]!.message.content).toContain('21°C');
    const sent = h.mocks.anthropic.lastGeneration().body;
    expect(sent.thinking).toMatchObject({ type: 'enabled' });
    expect(sent.messages[1].content[0].type).toBe('thinking');
  });

  it('a client that sends the reasoning back as bare text (reasoning_content, as the AI SDK’s OpenAI-compatible provider does): the cached thinking block, signed, goes in its place and thinking stays on', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    h.mocks.anthropic.next({ kind: 'turn', turn: { reasoning: { text: 'Paris needs the weather tool.' }, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const first = await client.chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', reasoning_effort: 'high', tools: [weatherTool], messages: [{ role: 'user', content: 'weather in Paris?' }] });
    const signature = h.mocks.anthropic.lastSignature;
    const message = first.choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
    expect(message.reasoning_content).toBe('Paris needs the weather tool.');
    const call = message.tool_calls![0]!;
    const assistant = { role: 'assistant', content: '', reasoning_content: message.reasoning_content, tool_calls: [call] } as OpenAI.ChatCompletionAssistantMessageParam;
    await client.chat.completions.create({
      model: 'anthropic/claude-sonnet-4-5',
      reasoning_effort: 'high',
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'weather in Paris?' }, assistant, { role: 'tool', tool_call_id: call.id, content: '21°C' }],
    });
    const sent = h.mocks.anthropic.lastGeneration().body;
    expect(sent.thinking).toMatchObject({ type: 'enabled' });
    expect(sent.messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'Paris needs the weather tool.', signature });
    await h.waitForLogs(2);
    expect(h.logs[1]!.effortSent).toBe('budget_tokens:4096');
  });

  // the log says what went: Claude's own effort setting where the model has one (it works without thinking), else nothing
  it.each([
    ['claude-sonnet-4-5', undefined],
    ['claude-opus-4-5', 'high'],
    ['claude-sonnet-4-6', 'high'],
  ])('with nothing cached, thinking is turned off for that request instead of a 400 (%s; effort sent: %s)', async (model, effortSent) => {
    const r = await post(`${h.a}/chat/completions`, {
      model: `anthropic/${model}`,
      reasoning_effort: 'high',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_never_seen', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_never_seen', content: '21°C' },
      ],
    });
    expect(r.status).toBe(200);
    const sent = h.mocks.anthropic.lastGeneration().body;
    expect(sent.thinking).toBeUndefined();
    expect(sent.output_config?.effort).toBe(effortSent);
    const [entry] = await h.waitForLogs(1);
    expect(entry).toMatchObject({ effortAsked: 'high' });
    expect(entry!.effortSent).toBe(effortSent);
  });
});

describe('a Messages client back on Anthropic after a model that did not think (passthrough)', () => {
  const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } }];
  // the turn a converted answer from Gemini gives a Messages client: a tool call, no thinking
  const history = (earlier = 'weather?'): Anthropic.MessageParam[] => [
    { role: 'user', content: earlier },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'function-call-1', name: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'function-call-1', content: 'sunny' }] },
  ];

  it.each([['small', 'weather?'], ['large (read lazily)', `weather? ${'x'.repeat(24 * 1024)}`]])(
    'manual thinking: turned off for that request instead of a 400 (%s body)',
    async (_size, earlier) => {
      const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
      const r = await client.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 4000 }, tools, messages: history(earlier) });
      expect(r.content.find((b) => b.type === 'text')).toMatchObject({ text: 'Tool said: sunny' });
      const sent = h.mocks.anthropic.lastGeneration().body;
      expect(sent.thinking).toBeUndefined();
      expect(sent.messages).toEqual(history(earlier));
      const [entry] = await h.waitForLogs(1);
      expect(entry!.effortAsked, 'the budget asked for').toBeDefined();
      expect(entry!.effortSent, 'none went').toBeUndefined();
    },
  );

  it('an effort asked by field (reasoning_effort, no thinking of its own): the thinking it maps to goes off for that turn, and the log says no effort went', async () => {
    const r = await post(`${h.b}/v1/messages`, { model: 'anthropic/claude-sonnet-4-5', max_tokens: 8000, reasoning_effort: 'high', tools, messages: history() });
    expect(r.status).toBe(200);
    expect(h.mocks.anthropic.lastGeneration().body.thinking).toBeUndefined();
    const [entry] = await h.waitForLogs(1);
    expect(entry!.effortAsked).toBe('high');
    expect(entry!.effortSent).toBeUndefined();
  });

  it('adaptive thinking: the turn goes back as it came (Claude itself may skip thinking there)', async () => {
    h.mocks.anthropic.strict = false;
    const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    await client.messages.create({ model: 'anthropic/claude-sonnet-4-6', max_tokens: 8000, thinking: { type: 'adaptive' }, tools, messages: history() });
    expect(h.mocks.anthropic.lastGeneration().body.thinking).toEqual({ type: 'adaptive' });
  });
});

describe('Gemini thought signatures', () => {
  it('round-trip through a Messages client (which has no field for them)', async () => {
    const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } }];
    const first = await client.messages.create({ model: 'gemini/gemini-3-pro-preview', max_tokens: 100, tools, messages: [{ role: 'user', content: 'weather?' }] });
    const use = first.content.find((b) => b.type === 'tool_use')!;
    expect(use).toBeTruthy();
    const second = await client.messages.create({
      model: 'gemini/gemini-3-pro-preview',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] },
      ],
    });
    expect(second.content.find((b) => b.type === 'text')).toMatchObject({ text: 'Tool said: sunny' });
    const replayed = h.mocks.gemini.lastGeneration().body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(replayed.tool_calls[0].extra_content.google.thought_signature).toMatch(/^CiQB/);
  });

  it('are re-attached for a Chat client (passthrough) that dropped extra_content, streamed answer', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'gemini/gemini-3-pro-preview', stream: true, tools: [weatherTool], messages: [{ role: 'user', content: 'weather?' }] });
    const { id, args } = await firstToolCall(stream);
    expect(id).not.toBe('');
    const r = await client.chat.completions.create({
      model: 'gemini/gemini-3-pro-preview',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: args } }] },
        { role: 'tool', tool_call_id: id, content: 'sunny' },
      ],
    });
    expect(r.choices[0]!.message.content).toBe('Tool said: sunny');
  });

  it('OpenRouter’s signed reasoning_details of a streamed answer go back with the tool turn of a client that dropped them (passthrough)', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const model = 'openrouter/anthropic/claude-sonnet-4.5';
    h.mocks.openrouter.next({ kind: 'turn', turn: { reasoning: { text: 'Paris needs the weather tool.' }, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const stream = await client.chat.completions.create({ model, stream: true, reasoning_effort: 'high', tools: [weatherTool], messages: [{ role: 'user', content: 'weather?' }] });
    const { id, args } = await firstToolCall(stream);
    expect(id).not.toBe('');
    const issued = [...h.mocks.openrouter.signatures];
    expect(issued).toHaveLength(1);
    // the AI SDK's way: the reasoning as bare text, no reasoning_details
    const assistant = { role: 'assistant', content: '', reasoning_content: 'Paris needs the weather tool.', tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: args } }] } as OpenAI.ChatCompletionAssistantMessageParam;
    await client.chat.completions.create({ model, reasoning_effort: 'high', tools: [weatherTool], messages: [{ role: 'user', content: 'weather?' }, assistant, { role: 'tool', tool_call_id: id, content: 'sunny' }] });
    const sent = h.mocks.openrouter.lastGeneration().body;
    expect(sent.messages[1].reasoning_details).toEqual([expect.objectContaining({ type: 'reasoning.text', text: 'Paris needs the weather tool.', signature: issued[0] })]);
  });

  it('are re-attached in a large conversation too (read lazily, parsed because it has tool calls)', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const first = await client.chat.completions.create({ model: 'gemini/gemini-3-pro-preview', tools: [weatherTool], messages: [{ role: 'user', content: 'weather?' }] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call.type).toBe('function');
    const earlier = { role: 'user' as const, content: 'x'.repeat(24 * 1024) };
    const r = await client.chat.completions.create({
      model: 'gemini/gemini-3-pro-preview',
      tools: [weatherTool],
      messages: [
        earlier,
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: call.type === 'function' ? call.function.arguments : '' } }] },
        { role: 'tool', tool_call_id: call.id, content: 'sunny' },
      ],
    });
    expect(r.choices[0]!.message.content).toBe('Tool said: sunny');
    const sent = h.mocks.gemini.lastGeneration();
    expect(sent.raw.length).toBeGreaterThan(24 * 1024);
    const replayed = sent.body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(replayed.tool_calls[0].extra_content.google.thought_signature).toMatch(/^CiQB/);
  });
});

describe('tool names over 64 characters', () => {
  const long = `mcp__a_really_long_server_name__${'and_a_very_descriptive_tool_name_'.repeat(2)}v2`;

  it('reach a 64-char target shortened and come back restored (non-stream and stream)', async () => {
    expect(long.length).toBeGreaterThan(64);
    const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    const tools = [{ name: long, input_schema: { type: 'object' as const, properties: { q: { type: 'string' } }, required: ['q'] } }];
    const res = await client.messages.create({ model: 'openai/gpt-5.4', max_tokens: 100, tools, messages: [{ role: 'user', content: 'go' }] });
    const sentName: string = h.mocks.openai.lastGeneration().body.tools[0].name;
    expect(sentName.length).toBeLessThanOrEqual(64);
    expect(sentName).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(res.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: long });

    const streamed = await client.messages.stream({ model: 'openai/gpt-5.4', max_tokens: 100, tools, messages: [{ role: 'user', content: 'go' }] }).finalMessage();
    expect(streamed.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: long });

    // history with the long name is shortened the same way
    const use = res.content.find((b) => b.type === 'tool_use')!;
    await client.messages.create({
      model: 'openai/gpt-5.4',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [use] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'done' }] },
      ],
    });
    const input = h.mocks.openai.lastGeneration().body.input as Array<{ type: string; name?: string }>;
    expect(input.find((i) => i.type === 'function_call')!.name).toBe(sentName);
  });

  it('a passthrough target receives the names untouched', async () => {
    const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    await client.messages.create({
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 100,
      tools: [{ name: long, input_schema: { type: 'object', properties: {} } }],
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(h.mocks.anthropic.lastGeneration().body.tools[0].name).toBe(long);
  });
});

describe('Gemini thought signatures through a Responses client', () => {
  it('are put back on the replayed function_call item', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: weatherTool.function.parameters, strict: false }];
    const first = await client.responses.create({ model: 'gemini/gemini-3-pro-preview', input: 'weather?', tools });
    const fc = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await client.responses.create({
      model: 'gemini/gemini-3-pro-preview',
      tools,
      input: [
        { role: 'user', content: 'weather?' },
        { type: 'function_call', call_id: fc.call_id, name: fc.name, arguments: fc.arguments },
        { type: 'function_call_output', call_id: fc.call_id, output: 'sunny' },
      ],
    });
    expect(second.output_text).toBe('Tool said: sunny');
  });
});
