/**
 * A Messages client that asked for no thinking, on `openai/…`: OpenAI reasons at the model's
 * default effort and returns a reasoning item with no summary (none was asked for) but with its
 * encrypted content, which OpenAI wants back before the function call on the next turn. The client
 * gets it as Anthropic returns reasoning it does not show (`display: "omitted"`): a `thinking` block
 * with empty text and the encrypted reasoning in its signature (our `svcp1.` envelope) — not a
 * `redacted_thinking` block, which Claude Code's VS Code extension shows as "Unsupported content
 * type" (cc-switch#5362) — and sending the turn back puts the reasoning item back, verified by
 * the mock. A reasoning item without encrypted content has nothing to carry: no block at all.
 * Through the real @anthropic-ai/sdk, non-streamed and streamed.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness();
const client = () => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });

const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
const base = { model: 'openai/gpt-5.4', max_tokens: 200, tools, messages: [ask] };

function scriptToolTurn(encrypted?: string): void {
  t.h.mocks.openai.next({
    kind: 'turn',
    turn: { reasoning: { text: 'Need the weather tool.', ...(encrypted !== undefined ? { encrypted } : {}) }, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  });
}

/** The next turn as Claude Code sends it: the assistant content as received, then the tool result. */
async function sendBack(content: Anthropic.ContentBlock[]): Promise<Array<Record<string, unknown>>> {
  const use = content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
  const res = await client().messages.create({
    ...base,
    messages: [ask, { role: 'assistant', content: content as Anthropic.ContentBlockParam[] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 21 °C.' }] }],
  });
  expect(res.content.some((b) => b.type === 'text')).toBe(true);
  return t.h.mocks.openai.lastGeneration().body.input as Array<Record<string, unknown>>;
}

function expectCarried(content: Anthropic.ContentBlock[]): void {
  expect(content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
  expect(content[0]).toEqual({ type: 'thinking', thinking: '', signature: expect.stringMatching(/^svcp1\./) });
}

function expectReplayed(input: Array<Record<string, unknown>>): void {
  const call = input.findIndex((i) => i.type === 'function_call');
  // the mock accepts only encrypted content it issued, and a reasoning item right before its call
  expect(input[call - 1]).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) });
  expect(input.filter((i) => i.type === 'reasoning')).toHaveLength(1);
}

describe('OpenAI reasoning a Messages client did not ask to see', () => {
  it('non-streamed: an empty thinking block carrying it, which goes back as the reasoning item', async () => {
    scriptToolTurn();
    const res = await client().messages.create(base);
    expect(t.h.mocks.openai.lastGeneration().body).not.toHaveProperty('reasoning.summary');
    expectCarried(res.content);
    expectReplayed(await sendBack(res.content));
  });

  it('streamed: the same block (no thinking deltas), and the same replay', async () => {
    scriptToolTurn();
    const stream = client().messages.stream(base);
    const deltas: string[] = [];
    stream.on('streamEvent', (ev) => {
      if (ev.type === 'content_block_delta') deltas.push(ev.delta.type);
    });
    const message = await stream.finalMessage();
    expectCarried(message.content);
    expect(deltas).not.toContain('thinking_delta');
    expect(deltas).toContain('signature_delta');
    expectReplayed(await sendBack(message.content));
  });

  it('a reasoning item without encrypted content: no block, streamed or not', async () => {
    scriptToolTurn('');
    expect((await client().messages.create(base)).content.map((b) => b.type)).toEqual(['tool_use']);
    scriptToolTurn('');
    expect((await client().messages.stream(base).finalMessage()).content.map((b) => b.type)).toEqual(['tool_use']);
  });
});

/**
 * A Messages client that turned thinking off (`thinking: {type: "disabled"}`): OpenAI is asked for
 * no reasoning (gpt-5.4 reasons only when asked: no effort, no summary goes), but a model may reason
 * all the same (one that cannot be turned off, gpt-5's `minimal`). The client gets no thinking block,
 * as Anthropic answers with thinking off, and the reasoning is kept by the proxy for the tool call it
 * led to: the next turn, which carries no block, still gives OpenAI its reasoning item before the call.
 */
describe('OpenAI reasoning for a Messages client that turned thinking off', () => {
  const off = { ...base, thinking: { type: 'disabled' as const } };

  async function sendBackOff(content: Anthropic.ContentBlock[]): Promise<Array<Record<string, unknown>>> {
    const use = content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    await client().messages.create({
      ...off,
      messages: [ask, { role: 'assistant', content: content as Anthropic.ContentBlockParam[] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 21 °C.' }] }],
    });
    return t.h.mocks.openai.lastGeneration().body.input as Array<Record<string, unknown>>;
  }

  function expectAskedForNone(): void {
    const sent = t.h.mocks.openai.lastGeneration().body;
    expect(sent).not.toHaveProperty('reasoning.effort');
    expect(sent).not.toHaveProperty('reasoning.summary');
  }

  it('non-streamed: no thinking block; the reasoning item still goes back before the call', async () => {
    scriptToolTurn();
    const res = await client().messages.create(off);
    expectAskedForNone();
    expect(res.content.map((b) => b.type)).toEqual(['tool_use']);
    expectReplayed(await sendBackOff(res.content));
  });

  it('streamed: no thinking block, no thinking or signature deltas; the same replay', async () => {
    scriptToolTurn();
    const stream = client().messages.stream(off);
    const deltas: string[] = [];
    stream.on('streamEvent', (ev) => {
      if (ev.type === 'content_block_delta') deltas.push(ev.delta.type);
    });
    const message = await stream.finalMessage();
    expectAskedForNone();
    expect(message.content.map((b) => b.type)).toEqual(['tool_use']);
    expect(deltas).not.toContain('thinking_delta');
    expect(deltas).not.toContain('signature_delta');
    expectReplayed(await sendBackOff(message.content));
  });
});
