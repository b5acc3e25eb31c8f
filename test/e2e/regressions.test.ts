/**
 * Regression tests for the bugs users of other proxies hit most (issue 3): thinking signatures
 * lost across turns, tool results out of order, streamed tool arguments on the wrong index,
 * input_tokens 0, Gemini schema keywords, cache_control where rejected, reasoning turned into
 * visible text, upstream kept running after the client left.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  assembleChatMessage, assembleChatToolCalls, chatStreamText, chatWeatherTool, collect, messagesWeatherTool, responsesWeatherTool,
} from '../fixtures/e2e-helpers.js';
import { GEMINI_REJECTED_KEYWORDS, schemaViolation, type Turn } from '../fixtures/mock-upstream/index.js';
import { MODELS, startWorld, type Kind, type World } from '../fixtures/world.js';

let world: World;
let chat: OpenAI;
let ant: Anthropic;

beforeAll(async () => {
  world = await startWorld();
  chat = world.daemon.openai();
  ant = world.daemon.anthropic();
}, 60_000);
afterAll(async () => world?.close());
beforeEach(() => world?.reset());

const THOUGHT = 'The user wants weather; call get_weather for Paris.';
const paris = { name: 'get_weather', arguments: { city: 'Paris' } };

describe('thinking signature survives across turns', () => {
  it('Anthropic upstream → Chat client (non-stream) → next request opens the assistant turn with the same signed thinking', async () => {
    const m = world.mocks.anthropic;
    m.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const question = { role: 'user' as const, content: 'Weather in Paris?' };
    const first = await chat.chat.completions.create({ model: MODELS.anthropic, reasoning_effort: 'high', max_completion_tokens: 8000, messages: [question], tools: [chatWeatherTool] });
    const assistant = first.choices[0]!.message as OpenAI.Chat.ChatCompletionMessage & Record<string, unknown>;
    expect(assistant.content ?? '').not.toContain(THOUGHT);
    expect(JSON.stringify(assistant)).toContain(THOUGHT); // carried in the reasoning fields
    const sig = m.lastSignature!;
    const call = assistant.tool_calls![0]!;

    const second = await chat.chat.completions.create({
      model: MODELS.anthropic,
      reasoning_effort: 'high',
      max_completion_tokens: 8000,
      tools: [chatWeatherTool],
      messages: [question, assistant as OpenAI.Chat.ChatCompletionAssistantMessageParam, { role: 'tool', tool_call_id: call.id, content: 'sunny, 21°C' }],
    });
    expect(second.choices[0]!.message.content).toBe('Tool said: sunny, 21°C');
    const rec = m.lastGeneration();
    const turn = rec.body.messages.find((x: { role: string }) => x.role === 'assistant');
    expect(turn.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: sig });
    expect(turn.content[1]).toMatchObject({ type: 'tool_use', id: call.id, name: 'get_weather', input: { city: 'Paris' } });
  });

  it('Anthropic upstream → Chat client (stream) → reasoning_details sent back → same signature upstream', async () => {
    const m = world.mocks.anthropic;
    m.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris], stream: { chunk: 5 } } });
    const question = { role: 'user' as const, content: 'Weather in Paris?' };
    const chunks = await collect(
      await chat.chat.completions.create({ model: MODELS.anthropic, reasoning_effort: 'high', max_completion_tokens: 8000, messages: [question], tools: [chatWeatherTool], stream: true }),
    );
    expect(chatStreamText(chunks)).not.toContain('call get_weather');
    const assistant = assembleChatMessage(chunks);
    const sig = m.lastSignature!;
    expect(JSON.stringify(assistant.reasoning_details ?? null), 'stream carries the signature in reasoning_details').toContain(sig);
    const call = (assistant.tool_calls as Array<{ id: string }>)[0]!;
    await chat.chat.completions.create({
      model: MODELS.anthropic,
      reasoning_effort: 'high',
      max_completion_tokens: 8000,
      tools: [chatWeatherTool],
      messages: [question, assistant as unknown as OpenAI.Chat.ChatCompletionAssistantMessageParam, { role: 'tool', tool_call_id: call.id, content: 'sunny' }],
    });
    const turn = m.lastGeneration().body.messages.find((x: { role: string }) => x.role === 'assistant');
    expect(turn.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: sig });
  });

  /** A thinking tool-call turn from Claude, and the request that replays it as a client that drops the reasoning fields does. */
  async function bareReplayOfThinkingTurn(): Promise<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming> {
    world.mocks.anthropic.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const question = { role: 'user' as const, content: 'Weather in Paris?' };
    const first = await chat.chat.completions.create({ model: MODELS.anthropic, reasoning_effort: 'high', max_completion_tokens: 8000, messages: [question], tools: [chatWeatherTool] });
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    const bare: OpenAI.Chat.ChatCompletionAssistantMessageParam = { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: call.function }] };
    return { model: MODELS.anthropic, reasoning_effort: 'high', max_completion_tokens: 8000, tools: [chatWeatherTool], messages: [question, bare, { role: 'tool', tool_call_id: call.id, content: 'sunny' }] };
  }

  it('a Chat client that drops the reasoning fields still gets its tool turn through (no "Expected thinking" 400)', async () => {
    const second = await chat.chat.completions.create(await bareReplayOfThinkingTurn());
    expect(second.choices[0]!.message.content).toBe('Tool said: sunny');
  });

  it("one service key's remembered thinking is never put into another key's replay of the same call id", async () => {
    const m = world.mocks.anthropic;
    const replay = await bareReplayOfThinkingTurn();
    const assistantTurn = () => m.lastGeneration().body.messages.find((x: { role: string }) => x.role === 'assistant') as { content: Array<{ type: string; thinking?: string }> };

    const created = await world.daemon.cli(['key', 'create', '--name', 'other-tool', '--json']);
    const other = world.daemon.openai({ apiKey: (JSON.parse(created.stdout) as { key: string }).key });
    await other.chat.completions.create(replay);
    expect(JSON.stringify(assistantTurn()), 'another key replaying the id gets none of the first key\'s thinking').not.toContain(THOUGHT);

    await chat.chat.completions.create(replay);
    expect(assistantTurn().content[0], 'the key that received the answer gets its thinking back').toMatchObject({ type: 'thinking', thinking: THOUGHT });
  });

  it('OpenAI encrypted reasoning → Messages client (signature) → back as the same reasoning item before its call', async () => {
    const m = world.mocks.openai;
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
    const params = { model: MODELS.openai, max_tokens: 8000, thinking: { type: 'enabled' as const, budget_tokens: 4000 }, tools: [messagesWeatherTool] };
    const first = await ant.messages.stream({ ...params, messages: [question] }).finalMessage();
    const r1 = m.lastGeneration();
    expect(r1.body.include ?? [], 'the proxy must ask OpenAI for encrypted reasoning').toContain('reasoning.encrypted_content');
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    const issued = [...m.encrypted];
    expect(issued).toHaveLength(1);
    const toolUse = first.content[1] as Anthropic.ToolUseBlock;

    await ant.messages.create({
      ...params,
      messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'sunny' }] }],
    });
    const input = m.lastGeneration().body.input as Array<Record<string, unknown>>;
    const ri = input.findIndex((i) => i.type === 'reasoning');
    expect(ri, 'reasoning item replayed').toBeGreaterThanOrEqual(0);
    expect(input[ri]!.encrypted_content).toBe(issued[0]);
    expect(input[ri + 1]).toMatchObject({ type: 'function_call', call_id: toolUse.id, name: 'get_weather' });
    expect(JSON.stringify(input)).not.toContain('svcp1.'); // no envelope reaches OpenAI
  });

  it('Anthropic thinking → Responses client (reasoning item) → back as the same signed thinking block', async () => {
    const m = world.mocks.anthropic;
    m.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const params = { model: MODELS.anthropic, reasoning: { effort: 'high' as const }, max_output_tokens: 8000, tools: [responsesWeatherTool] };
    const first = await chat.responses.create({ ...params, input: 'Weather in Paris?' });
    const sig = m.lastSignature!;
    const rs = first.output.find((o) => o.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    const fc = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect(rs?.id).toMatch(/^rs_/);
    expect(rs.encrypted_content).toBeTruthy();
    expect(first.output_text ?? '').not.toContain(THOUGHT);
    await chat.responses.create({
      ...params,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'reasoning', id: rs.id, summary: rs.summary, encrypted_content: rs.encrypted_content },
        { type: 'function_call', call_id: fc.call_id, name: fc.name, arguments: fc.arguments },
        { type: 'function_call_output', call_id: fc.call_id, output: 'sunny' },
      ],
    });
    const turn = m.lastGeneration().body.messages.find((x: { role: string }) => x.role === 'assistant');
    expect(turn.content[0]).toMatchObject({ type: 'thinking', signature: sig });
    expect(turn.content[1]).toMatchObject({ type: 'tool_use', id: fc.call_id });
  });

  it('OpenRouter signed reasoning_details → Messages client → back to OpenRouter verbatim', async () => {
    const m = world.mocks.openrouter;
    m.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
    const params = { model: MODELS.openrouter, max_tokens: 8000, thinking: { type: 'enabled' as const, budget_tokens: 4000 }, tools: [messagesWeatherTool] };
    const first = await ant.messages.stream({ ...params, messages: [question] }).finalMessage();
    const issued = [...m.signatures].pop(); // the signature this OpenRouter mock just issued
    expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: THOUGHT });
    const toolUse = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    await ant.messages.create({
      ...params,
      messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'sunny' }] }],
    });
    const assistant = (m.lastGeneration().body.messages as Array<Record<string, unknown>>).find((x) => x.role === 'assistant')!;
    const details = assistant.reasoning_details as Array<Record<string, unknown>> | undefined;
    expect(details, 'reasoning_details replayed on the assistant message').toBeDefined();
    expect(details!.find((d) => d.signature)?.signature).toBe(issued);
  });

  it.each(['chat', 'responses'] as const)('Gemini 3 thought signature restored when a %s client cannot carry it', async (via) => {
    const m = world.mocks.gemini;
    const model = 'gemini/gemini-3-pro-preview';
    let callId: string;
    if (via === 'chat') {
      const first = await chat.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather?' }], tools: [chatWeatherTool] });
      const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
      callId = call.id;
      // A client that keeps only the standard fields (no extra_content).
      await chat.chat.completions.create({
        model,
        tools: [chatWeatherTool],
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: call.function }] },
          { role: 'tool', tool_call_id: call.id, content: 'sunny' },
        ],
      });
    } else {
      const first = await chat.responses.create({ model, input: 'Weather?', tools: [responsesWeatherTool] });
      const fc = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
      callId = fc.call_id;
      await chat.responses.create({
        model,
        tools: [responsesWeatherTool],
        input: [
          { role: 'user', content: 'Weather?' },
          { type: 'function_call', call_id: fc.call_id, name: fc.name, arguments: fc.arguments },
          { type: 'function_call_output', call_id: fc.call_id, output: 'sunny' },
        ],
      });
    }
    const sent = (m.lastGeneration().body.messages as Array<Record<string, unknown>>).find((x) => x.role === 'assistant')!;
    const tc = (sent.tool_calls as Array<{ id: string; extra_content?: { google?: { thought_signature?: string } } }>)[0]!;
    expect(tc.id).toBe(callId);
    expect(tc.extra_content?.google?.thought_signature).toBe(m.thoughtSignatures.get(callId));
  });

  it('Gemini thought signatures on tool calls round-trip through a Messages client', async () => {
    const m = world.mocks.gemini;
    const model = 'gemini/gemini-3-pro-preview';
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
    const first = await ant.messages.create({ model, max_tokens: 1000, tools: [messagesWeatherTool], messages: [question] });
    const toolUse = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(m.thoughtSignatures.get(toolUse.id), 'tool_use id kept verbatim').toBeDefined();
    const second = await ant.messages.create({
      model,
      max_tokens: 1000,
      tools: [messagesWeatherTool],
      messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'sunny' }] }],
    });
    expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: sunny' })]);
  });
});

describe('tool calls and results keep their order', () => {
  const calls: Turn['toolCalls'] = [
    { id: 'toolu_A', name: 'get_weather', arguments: { city: 'Paris' } },
    { id: 'toolu_B', name: 'get_weather', arguments: { city: 'Rome' } },
  ];

  it('Messages client [tool_result A, tool_result B, text] → Chat upstream: tool A, tool B, then user text', async () => {
    await ant.messages.create({
      model: MODELS.openrouter,
      max_tokens: 500,
      tools: [messagesWeatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: calls!.map((c) => ({ type: 'tool_use' as const, id: c.id!, name: c.name, input: c.arguments as object })) },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_A', content: 'sunny' },
            { type: 'tool_result', tool_use_id: 'toolu_B', content: 'rainy' },
            { type: 'text', text: 'Compare them.' },
          ],
        },
      ],
    });
    const msgs = world.mocks.openrouter.lastGeneration().body.messages as Array<Record<string, unknown>>;
    expect(msgs.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect((msgs[1]!.tool_calls as Array<{ id: string }>).map((c) => c.id)).toEqual(['toolu_A', 'toolu_B']);
    expect(msgs.slice(2, 4).map((x) => [x.tool_call_id, x.content])).toEqual([
      ['toolu_A', 'sunny'],
      ['toolu_B', 'rainy'],
    ]);
    expect(JSON.stringify(msgs[4]!.content)).toContain('Compare them.');
  });

  it('Chat client tool A, tool B, user text → Anthropic upstream: one user turn [tool_result A, tool_result B, text]', async () => {
    await chat.chat.completions.create({
      model: MODELS.anthropic,
      tools: [chatWeatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: null, tool_calls: calls!.map((c) => ({ id: c.id!, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) },
        { role: 'tool', tool_call_id: 'toolu_A', content: 'sunny' },
        { role: 'tool', tool_call_id: 'toolu_B', content: 'rainy' },
        { role: 'user', content: 'Compare them.' },
      ],
    });
    const msgs = world.mocks.anthropic.lastGeneration().body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(msgs.map((x) => x.role)).toEqual(['user', 'assistant', 'user']);
    expect(msgs[1]!.content.map((b) => [b.type, b.id])).toEqual([
      ['tool_use', 'toolu_A'],
      ['tool_use', 'toolu_B'],
    ]);
    expect(msgs[2]!.content.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
    expect(msgs[2]!.content.map((b) => b.tool_use_id ?? b.text)).toEqual(['toolu_A', 'toolu_B', 'Compare them.']);
  });

  it('Responses client function_call_outputs → Anthropic upstream tool_results in the same order', async () => {
    await chat.responses.create({
      model: MODELS.anthropic,
      tools: [responsesWeatherTool],
      input: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { type: 'function_call', call_id: 'toolu_A', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'toolu_B', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'toolu_A', output: 'sunny' },
        { type: 'function_call_output', call_id: 'toolu_B', output: 'rainy' },
      ],
    });
    const msgs = world.mocks.anthropic.lastGeneration().body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(msgs[msgs.length - 1]!.content.map((b) => [b.type, b.tool_use_id])).toEqual([
      ['tool_result', 'toolu_A'],
      ['tool_result', 'toolu_B'],
    ]);
  });
});

describe('streamed tool arguments land on the right call (two parallel calls)', () => {
  const two: Turn = {
    toolCalls: [
      { name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
      { name: 'get_time', arguments: { zone: 'Europe/Rome' } },
    ],
    stream: { chunk: 4, interleaveToolCalls: true },
  };
  const tools: OpenAI.Chat.ChatCompletionTool[] = [
    chatWeatherTool,
    { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } } } } },
  ];
  const expected = [
    ['get_weather', { city: 'Paris', unit: 'celsius' }],
    ['get_time', { zone: 'Europe/Rome' }],
  ];

  it.each(['anthropic', 'openai', 'openrouter', 'gemini', 'customA', 'customB', 'local'] as Kind[])('Chat client stream ← %s', async (kind) => {
    world.mock(kind).next({ kind: 'turn', turn: two });
    const chunks = await collect(await chat.chat.completions.create({ model: MODELS[kind], messages: [{ role: 'user', content: 'go' }], tools, stream: true }));
    const calls = assembleChatToolCalls(chunks);
    expect(calls.map((c) => c.index)).toEqual([0, 1]);
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual(expected);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
  });

  it.each(['openai', 'openrouter', 'gemini', 'customA', 'local'] as Kind[])('Messages client stream ← %s (interleaved upstream fragments)', async (kind) => {
    world.mock(kind).next({ kind: 'turn', turn: two });
    const final = await ant.messages
      .stream({
        model: MODELS[kind],
        max_tokens: 500,
        tools: tools.map((t) => ({ name: (t as OpenAI.Chat.ChatCompletionFunctionTool).function.name, input_schema: { type: 'object' as const, properties: {} } })),
        messages: [{ role: 'user', content: 'go' }],
      })
      .finalMessage();
    const uses = final.content.filter((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock[];
    expect(uses.map((u) => [u.name, u.input])).toEqual(expected);
  });

  it('Responses client stream ← anthropic: two function_call items with their own arguments', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: two });
    const final = await chat.responses
      .stream({ model: MODELS.anthropic, input: 'go', tools: [responsesWeatherTool, { type: 'function', name: 'get_time', parameters: { type: 'object', properties: {} }, strict: false }] })
      .finalResponse();
    const fcs = final.output.filter((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall[];
    expect(fcs.map((f) => [f.name, JSON.parse(f.arguments)])).toEqual(expected);
  });
});

describe('usage: input_tokens with cache semantics', () => {
  const usage = { input: 1234, output: 56, cacheRead: 1000, cacheWrite: 0, reasoning: 0 };

  it.each(['openrouter', 'customA', 'openai', 'anthropic'] as Kind[])('Messages client stream ← %s: input excludes cache reads, never 0', async (kind) => {
    world.mock(kind).next({ kind: 'turn', turn: { text: 'ok', usage } });
    const events = await collect(await ant.messages.create({ model: MODELS[kind], max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    const start = events.find((e) => e.type === 'message_start') as Anthropic.RawMessageStartEvent;
    const delta = events.find((e) => e.type === 'message_delta') as Anthropic.RawMessageDeltaEvent;
    const input = delta.usage.input_tokens ?? start.message.usage.input_tokens;
    const cacheRead = delta.usage.cache_read_input_tokens ?? start.message.usage.cache_read_input_tokens;
    expect(input).toBe(234);
    expect(cacheRead).toBe(1000);
    expect(delta.usage.output_tokens).toBe(56);
    if (kind === 'anthropic') expect(start.message.usage.input_tokens).toBe(234);
  });

  it.each(['anthropic', 'customB'] as Kind[])('Chat client ← %s: prompt_tokens is the total including cache', async (kind) => {
    world.mock(kind).next({ kind: 'turn', turn: { text: 'ok', usage } });
    const res = await chat.chat.completions.create({ model: MODELS[kind], messages: [{ role: 'user', content: 'hi' }] });
    expect(res.usage).toMatchObject({ prompt_tokens: 1234, completion_tokens: 56, prompt_tokens_details: { cached_tokens: 1000 } });
  });
});

describe('Gemini schema keywords are stripped', () => {
  const hostile = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    additionalProperties: false,
    properties: {
      const: { type: 'string', const: 'fixed' },
      count: { type: 'integer', exclusiveMinimum: 0 },
      tags: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'string' } },
      items: { type: 'array', items: { type: 'object', additionalProperties: false, properties: { id: { type: 'string' } } } },
    },
    required: ['const'],
  };

  it('chat client tools and json_schema response_format → nothing Gemini rejects arrives, request succeeds', async () => {
    const res = await chat.chat.completions.create({
      model: MODELS.gemini,
      messages: [{ role: 'user', content: 'Fill it in' }],
      tools: [{ type: 'function', function: { name: 'fill', parameters: hostile, strict: true } }],
    });
    expect(res.choices[0]!.message.tool_calls?.[0]).toBeDefined();
    const rec = world.mocks.gemini.lastGeneration();
    const params = rec.body.tools[0].function.parameters;
    expect(schemaViolation(params, 'p')).toBeUndefined();
    expect(Object.keys(params.properties)).toEqual(['const', 'count', 'tags', 'items']); // property NAMES survive

    await chat.chat.completions.create({
      model: MODELS.gemini,
      messages: [{ role: 'user', content: 'JSON please' }],
      response_format: { type: 'json_schema', json_schema: { name: 'out', strict: true, schema: hostile } },
    });
    const rf = world.mocks.gemini.lastGeneration().body.response_format;
    expect(schemaViolation(rf?.json_schema?.schema, 'r')).toBeUndefined();
  });

  it('Messages client input_schema → Gemini: stripped too', async () => {
    await ant.messages.create({
      model: MODELS.gemini,
      max_tokens: 100,
      tools: [{ name: 'fill', input_schema: hostile as Anthropic.Tool.InputSchema }],
      messages: [{ role: 'user', content: 'go' }],
    });
    const raw = world.mocks.gemini.lastGeneration().raw.toString();
    for (const kw of GEMINI_REJECTED_KEYWORDS.filter((k) => k !== 'const')) expect(raw, kw).not.toContain(`"${kw}"`);
  });
});

// OpenRouter takes the breakpoints on Chat content parts (test/routing/openrouter-cache-control.test.ts)
describe('cache_control goes only to Anthropic (and OpenRouter)', () => {
  const withCache = (model: string) =>
    ant.messages.create({
      model,
      max_tokens: 100,
      system: [{ type: 'text', text: 'Long stable system prompt.', cache_control: { type: 'ephemeral' } }],
      tools: [{ ...messagesWeatherTool, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Earlier question', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: 'Earlier answer' },
        { role: 'user', content: 'Now?' },
      ],
    });

  it.each(['openai', 'gemini', 'customA', 'local'] as Kind[])('stripped before %s', async (kind) => {
    await withCache(MODELS[kind]);
    expect(world.mock(kind).lastGeneration().raw.toString()).not.toContain('cache_control');
  });

  it('kept for anthropic (at most 4, never on thinking)', async () => {
    await withCache(MODELS.anthropic);
    const raw = world.mocks.anthropic.lastGeneration().raw.toString();
    expect(raw.match(/cache_control/g)?.length).toBe(3);
  });
});

describe('reasoning never becomes visible text', () => {
  const SECRET = 'internal chain of thought 42';

  it.each(['anthropic', 'openai', 'openrouter', 'local'] as Kind[])('%s reasoning → Chat client: not in content (stream and not)', async (kind) => {
    const turn: Turn = { reasoning: { text: SECRET }, text: 'Visible answer.' };
    const m = world.mock(kind);
    m.next({ kind: 'turn', turn }, { kind: 'turn', turn });
    const params = { model: MODELS[kind], reasoning_effort: 'high' as const, messages: [{ role: 'user' as const, content: 'hi' }] };
    const res = await chat.chat.completions.create(params);
    expect(res.choices[0]!.message.content).toBe('Visible answer.');
    const chunks = await collect(await chat.chat.completions.create({ ...params, stream: true }));
    expect(chatStreamText(chunks)).toBe('Visible answer.');
  });

  it.each(['openai', 'openrouter', 'local'] as Kind[])('%s reasoning → Messages client: only in thinking blocks', async (kind) => {
    world.mock(kind).next({ kind: 'turn', turn: { reasoning: { text: SECRET }, text: 'Visible answer.' } });
    const msg = await ant.messages.create({ model: MODELS[kind], max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2000 }, messages: [{ role: 'user', content: 'hi' }] });
    const texts = msg.content.filter((b) => b.type === 'text').map((b) => (b as Anthropic.TextBlock).text);
    expect(texts.join('')).toBe('Visible answer.');
  });

  it.each(['anthropic', 'openrouter', 'local'] as Kind[])('%s reasoning → Responses client: output_text is the answer only', async (kind) => {
    world.mock(kind).next({ kind: 'turn', turn: { reasoning: { text: SECRET }, text: 'Visible answer.' } });
    const res = await chat.responses.create({ model: MODELS[kind], input: 'hi', reasoning: { effort: 'high' } });
    expect(res.output_text).toBe('Visible answer.');
  });

  it('unsigned reasoning in Chat history is not replayed as text to Anthropic, and stays a reasoning field for a local server', async () => {
    const history: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', reasoning_content: SECRET } as OpenAI.Chat.ChatCompletionAssistantMessageParam,
      { role: 'user', content: 'again' },
    ];
    await chat.chat.completions.create({ model: MODELS.anthropic, messages: history });
    expect(world.mocks.anthropic.lastGeneration().raw.toString()).not.toContain(SECRET);
    await chat.chat.completions.create({ model: MODELS.local, messages: history });
    const msgs = world.mocks.local.lastGeneration().body.messages as Array<Record<string, unknown>>;
    expect(msgs[1]!.content).toBe('hello');
    expect(msgs[1]!.reasoning ?? msgs[1]!.reasoning_content).toBe(SECRET);
  });
});

describe('client abort stops the upstream request', () => {
  const slow: Turn = { text: 'x'.repeat(200), stream: { chunk: 2, delayMs: 40 } };

  // the slow stream runs 4 s: an abort that does not reach the upstream lets it finish (closedEarly false)
  it.each(['anthropic', 'openai', 'openrouter', 'gemini', 'customA'] as Kind[])('Chat client aborts a stream from %s → upstream socket closed before the stream ends', async (kind) => {
    const m = world.mock(kind);
    m.next({ kind: 'turn', turn: slow });
    const stream = await chat.chat.completions.create({ model: MODELS[kind], messages: [{ role: 'user', content: 'long' }], stream: true });
    let seen = 0;
    let aborted = false;
    try {
      for await (const c of stream) {
        if (c.choices[0]?.delta?.content) seen++;
        if (seen === 3) {
          aborted = true;
          stream.controller.abort();
        }
      }
    } catch {
      // the SDK throws an abort error
    }
    expect(aborted).toBe(true);
    const rec = m.lastGeneration();
    await rec.done;
    expect(rec.closedEarly, 'upstream stream ran to its end').toBe(true);
  });

  it('Messages client aborts a stream from openai → upstream closed', async () => {
    const m = world.mocks.openai;
    m.next({ kind: 'turn', turn: slow });
    const stream = ant.messages.stream({ model: MODELS.openai, max_tokens: 100, messages: [{ role: 'user', content: 'long' }] });
    let aborted = false;
    stream.on('text', () => {
      if (!aborted) {
        aborted = true;
        stream.abort();
      }
    });
    await stream.done().catch(() => undefined);
    expect(aborted).toBe(true);
    const rec = m.lastGeneration();
    await rec.done;
    expect(rec.closedEarly, 'upstream stream ran to its end').toBe(true);
  });
});

describe('a revoked key stops at once, its answers under way included', () => {
  it('its stream ends with a final invalid_api_key event, its waiting request gets a 401, both upstream calls are dropped; other keys go on', async () => {
    const created = JSON.parse((await world.daemon.cli(['key', 'create', '--name', 'leaving', '--json'])).stdout) as { key: string };
    const post = (path: string, body: unknown): Promise<Response> =>
      fetch(`${world.daemon.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${created.key}`, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(body),
      });
    // 40 chunks 100 ms apart: the stream would run for 4 s
    world.mocks.customA.next({ kind: 'turn', turn: { text: 'word '.repeat(40), stream: { chunk: 5, delayMs: 100 } } });
    world.mocks.anthropic.next({ kind: 'hang' });
    const streamed = await post('/protocol-a/v1/chat/completions', { model: MODELS.customA, stream: true, messages: [{ role: 'user', content: 'long' }] });
    expect(streamed.status).toBe(200);
    const reader = streamed.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('chat.completion.chunk');
    const waiting = post('/protocol-b/v1/messages', { model: MODELS.anthropic, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    await world.mocks.anthropic.waitForGeneration();

    expect((await world.daemon.cli(['key', 'revoke', 'leaving'])).code).toBe(0);
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    // a stream the revoke did not stop runs its 4 s to [DONE]: its last event is no error then
    const last = rest.trim().split('\n\n').at(-1)!;
    expect(JSON.parse(last.slice('data: '.length))).toMatchObject({ error: { code: 'invalid_api_key', type: 'authentication_error' } });
    const refused = await waiting;
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error', code: 'invalid_api_key' } });
    for (const m of [world.mocks.customA, world.mocks.anthropic]) {
      const rec = m.lastGeneration();
      // the stream would run 4 s and the hang forever: only a drop ends them early
      await rec.done;
      expect(rec.closedEarly, 'the upstream call was dropped').toBe(true);
    }
    // the daemon's own key was not touched
    const answer = await chat.chat.completions.create({ model: MODELS.customA, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]!.message.content).toBe('Echo: hi');
  });
});
