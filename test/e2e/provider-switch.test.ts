/**
 * A client that switches model mid-conversation (Claude Code's /model, a Codex profile change)
 * sends back reasoning another provider produced. When the new target speaks the client's own
 * dialect the body is passed through, and our envelopes must still never reach it
 * (PROTOCOLS.md §7.5): the provider's own proof is restored, anything foreign removed, and with
 * the proof of a pending tool turn gone, thinking is turned off for that request rather than
 * earning a 400. The mocks reject any signature or encrypted content they did not issue.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assembleChatMessage, chatWeatherTool, collect, messagesWeatherTool, responsesWeatherTool } from '../fixtures/e2e-helpers.js';
import { MODELS, SLUGS, startWorld, type World } from '../fixtures/world.js';

let world: World;
let openai: OpenAI;
let ant: Anthropic;

beforeAll(async () => {
  world = await startWorld();
  openai = world.daemon.openai();
  ant = world.daemon.anthropic();
}, 60_000);
afterAll(async () => world?.close());
beforeEach(() => world?.reset());

const THOUGHT = 'The user wants weather; call get_weather for Paris.';
const paris = { name: 'get_weather', arguments: { city: 'Paris' } };
const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
const thinkingParams = { max_tokens: 8000, thinking: { type: 'enabled' as const, budget_tokens: 4000 }, tools: [messagesWeatherTool] };

function answered(first: Anthropic.Message, result: string): Anthropic.MessageParam[] {
  const toolUse = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
  return [{ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: result }] }];
}

describe('Messages client switching to an Anthropic target (passthrough)', () => {
  it('from OpenRouter, mid tool loop: its reasoning is removed and thinking is off for the turn', async () => {
    world.mocks.openrouter.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const first = await ant.messages.create({ ...thinkingParams, model: MODELS.openrouter, messages: [question] });
    expect((first.content[0] as Anthropic.ThinkingBlock).signature).toMatch(/^svcp1\./);

    const second = await ant.messages.create({ ...thinkingParams, model: MODELS.anthropic, messages: [question, ...answered(first, 'sunny')] });
    expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: sunny' })]);
    const sent = world.mocks.anthropic.lastGeneration().body;
    expect(JSON.stringify(sent)).not.toContain('svcp1.');
    expect(sent.thinking, 'the answered tool turn lost its proof: thinking off for this request').toBeUndefined();
    expect(sent.messages[1].content.map((b: { type: string }) => b.type)).toEqual(['tool_use']);
    expect(sent.messages[1].content[0].input).toEqual({ city: 'Paris' });
  });

  it('back from OpenAI: Anthropic’s own thinking stays signed, OpenAI’s is removed, thinking stays on', async () => {
    const anthropic = world.mocks.anthropic;
    anthropic.next({ kind: 'turn', turn: { reasoning: { text: 'Anthropic thought.' }, text: 'It is sunny.' } });
    const first = await ant.messages.create({ ...thinkingParams, model: MODELS.anthropic, messages: [question] });
    const signed = first.content[0] as Anthropic.ThinkingBlock;
    expect(signed.signature).toBe(anthropic.lastSignature);

    world.mocks.openai.next({ kind: 'turn', turn: { reasoning: { text: 'OpenAI thought.' }, text: 'Still sunny.' } });
    const history: Anthropic.MessageParam[] = [question, { role: 'assistant', content: first.content }, { role: 'user', content: 'And tomorrow?' }];
    const second = await ant.messages.create({ ...thinkingParams, model: MODELS.openai, messages: history });
    expect((second.content[0] as Anthropic.ThinkingBlock).signature).toMatch(/^svcp1\./);

    await ant.messages.create({ ...thinkingParams, model: MODELS.anthropic, messages: [...history, { role: 'assistant', content: second.content }, { role: 'user', content: 'Thanks!' }] });
    const sent = anthropic.lastGeneration().body;
    expect(JSON.stringify(sent)).not.toContain('svcp1.');
    expect(JSON.stringify(sent)).not.toContain('OpenAI thought.');
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 4000 });
    expect(sent.messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'Anthropic thought.', signature: signed.signature });
    expect(sent.messages[3].content).toEqual([{ type: 'text', text: 'Still sunny.' }]);
  });

  it('count_tokens after a switch from a custom endpoint sends none of its signatures', async () => {
    world.mocks.customB.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const first = await ant.messages.create({ ...thinkingParams, model: MODELS.customB, messages: [question] });
    const glmSignature = (first.content[0] as Anthropic.ThinkingBlock).signature;
    const res = await ant.messages.countTokens({ model: MODELS.anthropic, tools: [messagesWeatherTool], messages: [question, ...answered(first, 'sunny')] });
    expect(res.input_tokens).toBeGreaterThan(0);
    const rec = world.mocks.anthropic.requests.find((r) => r.path === '/v1/messages/count_tokens')!;
    expect(rec.raw.toString('utf8')).not.toContain(glmSignature);
    expect(rec.body.messages[1].content.map((b: { type: string }) => b.type)).toEqual(['tool_use']);
  });

  it('count_tokens after a switch never sends an envelope either', async () => {
    world.mocks.openrouter.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const first = await ant.messages.create({ ...thinkingParams, model: MODELS.openrouter, messages: [question] });
    const res = await ant.messages.countTokens({ model: MODELS.anthropic, tools: [messagesWeatherTool], messages: [question, ...answered(first, 'sunny')] });
    expect(res.input_tokens).toBeGreaterThan(0);
    const rec = world.mocks.anthropic.requests.find((r) => r.path === '/v1/messages/count_tokens')!;
    expect(JSON.stringify(rec.body)).not.toContain('svcp1.');
    expect(rec.body.messages[1].content.map((b: { type: string }) => b.type)).toEqual(['tool_use']);
  });
});

describe('Responses client switching to OpenAI (passthrough)', () => {
  it('from Anthropic, mid tool loop: the enveloped reasoning item is removed, the call and its output stay', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const params = { reasoning: { effort: 'high' as const }, max_output_tokens: 8000, tools: [responsesWeatherTool] };
    const first = await openai.responses.create({ ...params, model: MODELS.anthropic, input: 'Weather in Paris?' });
    const rs = first.output.find((o) => o.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    const fc = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect(rs.encrypted_content).toMatch(/^svcp1\./);

    const second = await openai.responses.create({
      ...params,
      model: MODELS.openai,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'reasoning', id: rs.id, summary: rs.summary, encrypted_content: rs.encrypted_content },
        { type: 'function_call', call_id: fc.call_id, name: fc.name, arguments: fc.arguments },
        { type: 'function_call_output', call_id: fc.call_id, output: 'sunny' },
      ],
    });
    expect(second.output_text).toBe('Tool said: sunny');
    const input = world.mocks.openai.lastGeneration().body.input as Array<Record<string, unknown>>;
    expect(JSON.stringify(input)).not.toContain('svcp1.');
    expect(input.map((i) => i.type ?? i.role)).toEqual(['user', 'function_call', 'function_call_output']);
  });

  it('OpenAI’s own reasoning items pass through untouched beside a removed foreign one', async () => {
    const m = world.mocks.openai;
    m.next({ kind: 'turn', turn: { reasoning: { text: 'OpenAI thought.' }, text: 'Sunny.' } });
    const params = { reasoning: { effort: 'high' as const }, max_output_tokens: 8000, include: ['reasoning.encrypted_content' as const], store: false };
    const first = await openai.responses.create({ ...params, model: MODELS.openai, input: 'Weather in Paris?' });
    const own = first.output.find((o) => o.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    expect(own.encrypted_content).toBe([...m.encrypted].pop());

    world.mocks.anthropic.next({ kind: 'turn', turn: { reasoning: { text: 'Anthropic thought.' }, text: 'Still sunny.' } });
    const history: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Weather in Paris?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'And tomorrow?' }];
    const second = await openai.responses.create({ ...params, model: MODELS.anthropic, input: history });
    const foreign = second.output.find((o) => o.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    expect(foreign.encrypted_content).toMatch(/^svcp1\./);

    await openai.responses.create({ ...params, model: MODELS.openai, input: [...history, ...(second.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'Thanks!' }] });
    const input = m.lastGeneration().body.input as Array<Record<string, unknown>>;
    expect(JSON.stringify(input)).not.toContain('svcp1.');
    const reasoning = input.filter((i) => i.type === 'reasoning');
    expect(reasoning).toHaveLength(1);
    expect(reasoning[0]).toMatchObject({ id: own.id, encrypted_content: own.encrypted_content });
  });
});

describe('Chat client switching to Gemini (passthrough)', () => {
  it('history as the OpenAI SDK returned it (refusal: null) reaches Gemini without the null', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { toolCalls: [paris] } });
    const question = { role: 'user' as const, content: 'Weather in Paris?' };
    const first = await openai.chat.completions.create({ model: MODELS.anthropic, max_completion_tokens: 1000, messages: [question], tools: [chatWeatherTool] });
    const assistant = first.choices[0]!.message;
    expect(assistant.refusal).toBeNull();
    const call = assistant.tool_calls![0]!;

    const second = await openai.chat.completions.create({
      model: MODELS.gemini,
      tools: [chatWeatherTool],
      messages: [question, assistant, { role: 'tool', tool_call_id: call.id, content: 'sunny' }],
    });
    expect(second.choices[0]!.message.content).toBe('Tool said: sunny');
    const sent = world.mocks.gemini.lastGeneration().body.messages as Array<Record<string, unknown>>;
    expect(sent[1]).not.toHaveProperty('refusal');
    expect(sent[1]!.tool_calls).toEqual([expect.objectContaining({ id: call.id })]);
  });
});

describe('a custom Messages endpoint’s signatures never reach another provider (streamed turns)', () => {
  it('Messages client: streamed from custom-b (passthrough), then Anthropic: its thinking removed, thinking off for the tool turn', async () => {
    world.mocks.customB.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris], stream: { chunk: 7 } } });
    const first = await ant.messages.stream({ ...thinkingParams, model: MODELS.customB, messages: [question] }).finalMessage();
    const glmSignature = (first.content[0] as Anthropic.ThinkingBlock).signature;
    expect(glmSignature).toBe(world.mocks.customB.lastSignature);

    const second = await ant.messages.create({ ...thinkingParams, model: MODELS.anthropic, messages: [question, ...answered(first, 'sunny')] });
    expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: sunny' })]);
    const sent = world.mocks.anthropic.lastGeneration();
    expect(sent.raw.toString('utf8')).not.toContain(glmSignature);
    expect(sent.body.thinking).toBeUndefined();

    // back to the endpoint that issued it: the signature goes with it
    await ant.messages.create({ ...thinkingParams, model: MODELS.customB, messages: [question, ...answered(first, 'sunny')] });
    expect(world.mocks.customB.lastGeneration().body.messages[1].content[0]).toMatchObject({ type: 'thinking', signature: glmSignature });
  });

  it('Chat client: streamed from custom-b (converted), then Anthropic (converted): the signature stays behind', async () => {
    world.mocks.customB.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris], stream: { chunk: 5 } } });
    const q = { role: 'user' as const, content: 'Weather in Paris?' };
    const params = { reasoning_effort: 'high' as const, max_completion_tokens: 8000, tools: [chatWeatherTool] };
    const chunks = await collect(await openai.chat.completions.create({ ...params, model: MODELS.customB, messages: [q], stream: true }));
    const message = assembleChatMessage(chunks);
    const glmSignature = world.mocks.customB.lastSignature!;
    expect(JSON.stringify(message)).toContain(glmSignature);
    const call = (message.tool_calls as Array<{ id: string }>)[0]!;

    const second = await openai.chat.completions.create({
      ...params,
      model: MODELS.anthropic,
      messages: [q, message as unknown as OpenAI.Chat.ChatCompletionAssistantMessageParam, { role: 'tool', tool_call_id: call.id, content: 'sunny' }],
    });
    expect(second.choices[0]!.message.content).toBe('Tool said: sunny');
    const sent = world.mocks.anthropic.lastGeneration();
    expect(sent.raw.toString('utf8')).not.toContain(glmSignature);
    expect(sent.body.thinking).toBeUndefined();
  });
});

describe('tool call ids Anthropic does not take (Kimi K2 issues `functions.name:index`)', () => {
  const KIMI_ID = 'functions.get_weather:0';
  const kimiCall = { ...paris, id: KIMI_ID };
  const plain = { max_tokens: 1000, tools: [messagesWeatherTool] };

  it('Messages client: gets an id Anthropic takes, goes on with Claude, and Kimi gets its own id back', async () => {
    world.mocks.customA.next({ kind: 'turn', turn: { toolCalls: [kimiCall] } });
    const first = await ant.messages.create({ ...plain, model: MODELS.customA, messages: [question] });
    const toolUse = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(toolUse.id).toMatch(/^[a-zA-Z0-9_-]+$/);

    const claude = await ant.messages.create({ ...plain, model: MODELS.anthropic, messages: [question, ...answered(first, 'sunny')] });
    expect(claude.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: sunny' })]);

    await ant.messages.create({ ...plain, model: MODELS.customA, messages: [question, ...answered(first, 'sunny')] });
    const sent = world.mocks.customA.lastGeneration().body;
    expect(sent.messages[1].tool_calls[0].id).toBe(KIMI_ID);
    expect(sent.messages[2]).toMatchObject({ role: 'tool', tool_call_id: KIMI_ID });
  });

  it('Messages client, streamed: the same id as non-streamed', async () => {
    world.mocks.customA.next({ kind: 'turn', turn: { toolCalls: [kimiCall] } });
    const first = await ant.messages.stream({ ...plain, model: MODELS.customA, messages: [question] }).finalMessage();
    const toolUse = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(toolUse.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    const claude = await ant.messages.create({ ...plain, model: MODELS.anthropic, messages: [question, ...answered(first, 'sunny')] });
    expect(claude.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: sunny' })]);
  });

  it('Chat and Responses clients: a Kimi call in history reaches Claude with a valid id pair', async () => {
    await openai.chat.completions.create({
      model: MODELS.anthropic,
      tools: [chatWeatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: KIMI_ID, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: KIMI_ID, content: 'sunny' },
      ],
    });
    const viaChat = world.mocks.anthropic.lastGeneration().body;
    const id = viaChat.messages[1].content[0].id as string;
    expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(viaChat.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: id });

    const out = await openai.responses.create({
      model: MODELS.anthropic,
      tools: [responsesWeatherTool],
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'function_call', call_id: KIMI_ID, name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: KIMI_ID, output: 'sunny' },
      ],
    });
    expect(out.output_text).toBe('Tool said: sunny');
  });
});

describe('DeepSeek in thinking mode wants reasoning_content on every assistant message', () => {
  const deepseek = `${SLUGS.customA}/deepseek-r1`;

  it('Messages client switching from Claude mid tool loop', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const first = await ant.messages.create({ ...thinkingParams, model: MODELS.anthropic, messages: [question] });
    const second = await ant.messages.create({ ...thinkingParams, model: deepseek, messages: [question, ...answered(first, 'sunny')] });
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'Tool said: sunny' });
    const assistant = world.mocks.customA.lastGeneration().body.messages[1];
    expect(assistant.reasoning_content, 'Claude’s thinking is not DeepSeek’s: an empty one').toBe('');
  });

  it('Chat client whose history never had the field (plain and from another model)', async () => {
    await openai.chat.completions.create({
      model: deepseek,
      tools: [chatWeatherTool],
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_x1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_x1', content: 'sunny' },
      ],
    });
    const sent = world.mocks.customA.lastGeneration().body.messages as Array<Record<string, unknown>>;
    expect(sent.filter((m) => m.role === 'assistant').map((m) => m.reasoning_content)).toEqual(['', '']);
  });
});

describe('Claude Code’s thinking display "omitted" on models that are not Claude', () => {
  const omitted = { max_tokens: 8000, thinking: { type: 'adaptive' as const, display: 'omitted' as const }, output_config: { effort: 'high' as const }, tools: [messagesWeatherTool] };
  const emptyThinking = { type: 'thinking', thinking: '', signature: expect.stringMatching(/^svcp1\./) };

  it('DeepSeek, streamed: no reasoning text reaches the client, and DeepSeek still gets its reasoning back', async () => {
    const deepseek = `${SLUGS.customA}/deepseek-r1`;
    world.mocks.customA.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const stream = ant.messages.stream({ ...omitted, model: deepseek, messages: [question] });
    const deltas: string[] = [];
    stream.on('streamEvent', (e) => {
      if (e.type === 'content_block_delta') deltas.push(e.delta.type);
    });
    const first = await stream.finalMessage();
    expect(first.content[0]).toEqual(emptyThinking);
    expect(deltas).not.toContain('thinking_delta');
    expect(JSON.stringify(first)).not.toContain(THOUGHT);

    const second = await ant.messages.create({ ...omitted, model: deepseek, messages: [question, ...answered(first, 'sunny')] });
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'Tool said: sunny' });
    expect(world.mocks.customA.lastGeneration().body.messages[1].reasoning_content).toBe(THOUGHT);
  });

  it('Kimi K2.6, whole: its own reasoning goes back, not the placeholder for reasoning it never wrote', async () => {
    const kimi = `${SLUGS.customA}/kimi-k2.6`;
    world.mocks.customA.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const first = await ant.messages.create({ ...omitted, model: kimi, messages: [question] });
    expect(first.content[0]).toEqual(emptyThinking);
    await ant.messages.create({ ...omitted, model: kimi, messages: [question, ...answered(first, 'sunny')] });
    expect(world.mocks.customA.lastGeneration().body.messages[1].reasoning_content).toBe(THOUGHT);
  });

  it('OpenAI: no reasoning summary is asked for; the encrypted reasoning still goes back on the next turn', async () => {
    world.mocks.openai.next({ kind: 'turn', turn: { reasoning: { text: 'OpenAI thought.' }, toolCalls: [paris] } });
    const first = await ant.messages.create({ ...omitted, model: MODELS.openai, messages: [question] });
    expect(world.mocks.openai.lastGeneration().body.reasoning).toEqual({ effort: 'high' });
    expect(first.content[0]).toEqual(emptyThinking);
    await ant.messages.create({ ...omitted, model: MODELS.openai, messages: [question, ...answered(first, 'sunny')] });
    const input = world.mocks.openai.lastGeneration().body.input as Array<Record<string, unknown>>;
    expect(input.find((i) => i.type === 'reasoning')).toMatchObject({ encrypted_content: expect.any(String) });
  });

  it('switching from DeepSeek to Claude mid tool loop: the envelope that carries DeepSeek’s reasoning never reaches Anthropic', async () => {
    world.mocks.customA.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const first = await ant.messages.create({ ...omitted, model: `${SLUGS.customA}/deepseek-r1`, messages: [question] });
    expect(first.content[0]).toEqual(emptyThinking);
    const second = await ant.messages.create({ ...omitted, model: MODELS.anthropic, messages: [question, ...answered(first, 'sunny')] });
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'Tool said: sunny' });
    const sent = JSON.stringify(world.mocks.anthropic.lastGeneration().body);
    expect(sent).not.toContain('svcp1.');
    expect(sent).not.toContain(THOUGHT);
  });

  it('Anthropic: passed through as sent to a model that takes adaptive thinking; to Sonnet 4.5, which refuses it, as the budget its level maps to, the display kept', async () => {
    await ant.messages.create({ ...omitted, model: 'anthropic/claude-opus-4-7', messages: [question] });
    expect(world.mocks.anthropic.lastGeneration().body.thinking).toEqual({ type: 'adaptive', display: 'omitted' });
    await ant.messages.create({ ...omitted, model: MODELS.anthropic, messages: [question] });
    expect(world.mocks.anthropic.lastGeneration().body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096, display: 'omitted' });
  });
});

describe('Kimi K2.6 thinks by default and wants reasoning_content on every assistant tool call message', () => {
  const kimi = `${SLUGS.customA}/kimi-k2.6`;

  it('Messages client switching from Claude mid tool loop: a placeholder, never empty', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris] } });
    const first = await ant.messages.create({ ...thinkingParams, model: MODELS.anthropic, messages: [question] });
    const second = await ant.messages.create({ ...thinkingParams, model: kimi, messages: [question, ...answered(first, 'sunny')] });
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'Tool said: sunny' });
    const assistant = world.mocks.customA.lastGeneration().body.messages[1];
    expect(assistant.reasoning_content, 'K2.6 reads an empty string as missing').toBe(' ');
  });

  it('Chat client: its own reasoning text goes back where Kimi reads it; plain turns are left alone', async () => {
    await openai.chat.completions.create({
      model: kimi,
      tools: [chatWeatherTool],
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, reasoning: 'Look it up.', tool_calls: [{ id: 'get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] } as never,
        { role: 'tool', tool_call_id: 'get_weather:0', content: 'sunny' },
      ],
    });
    const sent = world.mocks.customA.lastGeneration().body.messages as Array<Record<string, unknown>>;
    expect(sent.filter((m) => m.role === 'assistant').map((m) => m.reasoning_content)).toEqual([undefined, 'Look it up.']);
  });
});

describe('Mistral takes only tool call ids of nine letters and digits', () => {
  const devstral = `${SLUGS.customA}/devstral-small-2`;
  const plain = { max_tokens: 1000, tools: [messagesWeatherTool] };

  it('Messages client switching from Claude mid tool loop: the toolu_ id is fitted on the call and its result', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { toolCalls: [paris] } });
    const first = await ant.messages.create({ ...plain, model: MODELS.anthropic, messages: [question] });
    const second = await ant.messages.create({ ...plain, model: devstral, messages: [question, ...answered(first, 'sunny')] });
    expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: sunny' })]);
    const [, assistant, result] = world.mocks.customA.lastGeneration().body.messages;
    expect(assistant.tool_calls[0].id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(result.tool_call_id).toBe(assistant.tool_calls[0].id);
  });

  it('Messages client whose turn holds tool results and text: an assistant turn bridges tool → user', async () => {
    world.mocks.customA.next({ kind: 'turn', turn: { toolCalls: [paris] } });
    const first = await ant.messages.create({ ...plain, model: devstral, messages: [question] });
    const toolUse = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    const second = await ant.messages.create({
      ...plain,
      model: devstral,
      messages: [
        question,
        { role: 'assistant', content: first.content },
        // Claude Code puts reminders beside its tool results
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'sunny' }, { type: 'text', text: '<system-reminder>Be brief.</system-reminder>' }] },
      ],
    });
    expect(second.content.length, 'answered, not refused').toBeGreaterThan(0);
    const roles = (world.mocks.customA.lastGeneration().body.messages as Array<{ role: string }>).map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('Chat client: ids Mistral issued pass unchanged, others are fitted', async () => {
    const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    await openai.chat.completions.create({
      model: devstral,
      tools: [chatWeatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: null, tool_calls: [call('D681PevKs'), call('call_PTLP8xhu3uwZk4l3nlnrrJha')] },
        { role: 'tool', tool_call_id: 'D681PevKs', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', content: 'rainy' },
      ],
    });
    const [, assistant, r1, r2] = world.mocks.customA.lastGeneration().body.messages;
    const ids = assistant.tool_calls.map((c: { id: string }) => c.id);
    expect(ids[0]).toBe('D681PevKs');
    expect(ids[1]).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect([r1.tool_call_id, r2.tool_call_id]).toEqual(ids);
  });
});

describe('reasoning a Chat server sends inline as <think>…</think> in the content', () => {
  // llama.cpp with --reasoning-format none and the like: small chunks split the tags
  const inline = (stream: boolean) => ({ reasoning: { text: THOUGHT }, reasoningInline: true, text: 'It is sunny.', ...(stream ? { stream: { chunk: 3 } } : {}) });
  const thinking = { max_tokens: 8000, thinking: { type: 'enabled' as const, budget_tokens: 4000 } };
  const effort = { reasoning: { effort: 'high' as const }, max_output_tokens: 8000 };

  it.each([false, true])('Messages client (streamed: %s): a thinking block and clean text', async (stream) => {
    world.mocks.local.next({ kind: 'turn', turn: inline(stream) });
    const params = { ...thinking, model: MODELS.local, messages: [question] };
    const msg = stream ? await ant.messages.stream(params).finalMessage() : await ant.messages.create(params);
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: THOUGHT, signature: expect.stringMatching(/^svcp1\./) },
      expect.objectContaining({ type: 'text', text: 'It is sunny.' }),
    ]);
  });

  it.each([false, true])('Responses client (streamed: %s): a reasoning item and clean text', async (stream) => {
    world.mocks.local.next({ kind: 'turn', turn: inline(stream) });
    const params = { ...effort, model: MODELS.local, input: 'Weather in Paris?' };
    const res = stream ? await openai.responses.stream(params).finalResponse() : await openai.responses.create(params);
    const reasoning = res.output.find((o) => o.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.summary.map((s) => s.text).join('')).toBe(THOUGHT);
    expect(res.output_text).toBe('It is sunny.');
  });

  // vLLM without --reasoning-parser serving Qwen3 Thinking-2507: its template put <think> in the
  // prompt, so the mock (like the model) writes only `…</think>\n\n` ahead of the text
  const qwenThinking = `${SLUGS.local}/qwen3-30b-a3b-thinking-2507`;

  it.each([false, true])('only </think> (the prompt opened the block), Messages client (streamed: %s): a thinking block and clean text', async (stream) => {
    world.mocks.local.next({ kind: 'turn', turn: inline(stream) });
    const params = { ...thinking, model: qwenThinking, messages: [question] };
    const msg = stream ? await ant.messages.stream(params).finalMessage() : await ant.messages.create(params);
    expect(world.mocks.local.lastGeneration().body.model).toBe('qwen3-30b-a3b-thinking-2507');
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: THOUGHT, signature: expect.stringMatching(/^svcp1\./) },
      expect.objectContaining({ type: 'text', text: 'It is sunny.' }),
    ]);
  });

  it.each([false, true])('only </think>, Responses client (streamed: %s): a reasoning item and clean text', async (stream) => {
    world.mocks.local.next({ kind: 'turn', turn: inline(stream) });
    const params = { ...effort, model: qwenThinking, input: 'Weather in Paris?' };
    const res = stream ? await openai.responses.stream(params).finalResponse() : await openai.responses.create(params);
    const reasoning = res.output.find((o) => o.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.summary.map((s) => s.text).join('')).toBe(THOUGHT);
    expect(res.output_text).toBe('It is sunny.');
  });

  it.each([false, true])('a Thinking-2507 answer without any </think> (Messages, streamed: %s) still reaches the client as its text', async (stream) => {
    world.mocks.local.next({ kind: 'turn', turn: { text: 'It is sunny.', ...(stream ? { stream: { chunk: 3 } } : {}) } });
    const params = { ...thinking, model: qwenThinking, messages: [question] };
    const msg = stream ? await ant.messages.stream(params).finalMessage() : await ant.messages.create(params);
    const text = expect.objectContaining({ type: 'text', text: 'It is sunny.' });
    // a stream sent it as thinking while </think> might still come, then the same text at the end
    const thought = { type: 'thinking', thinking: 'It is sunny.', signature: expect.stringMatching(/^svcp1\./) };
    expect(msg.content).toEqual(stream ? [thought, text] : [text]);
    expect(msg.stop_reason).toBe('end_turn');
  });

  it('a Thinking-2507 server with a reasoning parser: the reasoning field is the thinking, the content the answer', async () => {
    world.mocks.local.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, reasoningInline: false, text: 'It is sunny.', stream: { chunk: 3 } } });
    const msg = await ant.messages.stream({ ...thinking, model: qwenThinking, messages: [question] }).finalMessage();
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: THOUGHT, signature: expect.stringMatching(/^svcp1\./) },
      expect.objectContaining({ type: 'text', text: 'It is sunny.' }),
    ]);
  });

  it('MiniMax: a Messages client’s second turn reaches it with the reasoning back inline, not in a field', async () => {
    const minimax = `${SLUGS.customA}/MiniMax-M2`;
    world.mocks.customA.next({ kind: 'turn', turn: { reasoning: { text: THOUGHT }, toolCalls: [paris], stream: { chunk: 5 } } });
    const first = await ant.messages.stream({ ...thinkingParams, model: minimax, messages: [question] }).finalMessage();
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect((first.content[0] as Anthropic.ThinkingBlock).thinking).toBe(THOUGHT);

    await ant.messages.create({ ...thinkingParams, model: minimax, messages: [question, ...answered(first, 'sunny')] });
    const assistant = world.mocks.customA.lastGeneration().body.messages[1] as Record<string, unknown>;
    expect(assistant.content).toBe(`<think>${THOUGHT}</think>\n\n`);
    expect(assistant).not.toHaveProperty('reasoning');
    expect(assistant).not.toHaveProperty('reasoning_content');
    expect(assistant.tool_calls).toEqual([expect.objectContaining({ function: expect.objectContaining({ name: 'get_weather' }) })]);
  });
});
