/**
 * Coding agents ask for large answers (Claude Code: 32,000 max_tokens and more); many models take
 * less and answer 400. The daemon reads the allowance the refusal states and sends the request
 * once more within it (routing/output-caps.ts); a model's own limit is remembered, a limit that
 * comes from the context and this request's input is not.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collect } from '../fixtures/e2e-helpers.js';
import { SLUGS, startWorld, type World } from '../fixtures/world.js';

let world: World;

beforeAll(async () => {
  world = await startWorld();
}, 60_000);
afterAll(async () => world?.close());
beforeEach(() => world?.reset());

const deepseek = `${SLUGS.customA}/deepseek-chat`;
const smallContext = `${SLUGS.local}/small-ctx`;
const hello: Anthropic.MessageParam = { role: 'user', content: 'Hello' };
const asked = (r: { body: Record<string, unknown> }): unknown => r.body.max_tokens ?? r.body.max_completion_tokens;

describe('an endpoint that refuses reasoning on replayed messages (Groq, Cerebras)', () => {
  const groq = `${SLUGS.customA}/openai/gpt-oss-120b`;
  const thinking = { max_tokens: 8000, thinking: { type: 'enabled' as const, budget_tokens: 4000 } };

  it('sent again without it, and the endpoint is remembered', async () => {
    const ant = world.daemon.anthropic();
    world.mocks.customA.next({ kind: 'turn', turn: { reasoning: { text: 'Plain thought.' }, text: 'Hi there.' } });
    const first = await ant.messages.create({ ...thinking, model: groq, messages: [hello] });
    expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: 'Plain thought.' });
    const history: Anthropic.MessageParam[] = [hello, { role: 'assistant', content: first.content }, { role: 'user', content: 'And now?' }];

    const second = await ant.messages.create({ ...thinking, model: groq, messages: history });
    expect(second.content.some((b) => b.type === 'text')).toBe(true);
    const [, refused, retried] = world.mocks.customA.generations().map((r) => (r.body.messages as Array<Record<string, unknown>>)[1]);
    expect(refused?.reasoning, 'first sent as usual').toBe('Plain thought.');
    expect(retried).not.toHaveProperty('reasoning');
    expect(retried).not.toHaveProperty('reasoning_content');

    await ant.messages.create({ ...thinking, model: groq, messages: history });
    expect(world.mocks.customA.generations(), 'known now: no second refusal').toHaveLength(4);
  });
});

describe('a model that takes a smaller output allowance than the client asks for', () => {
  it('Messages client (converted): sent again within the stated limit, which later requests keep', async () => {
    const ant = world.daemon.anthropic();
    const first = await ant.messages.create({ model: deepseek, max_tokens: 32000, messages: [hello] });
    expect(first.content[0]).toMatchObject({ type: 'text' });
    expect(world.mocks.customA.generations().map(asked)).toEqual([32000, 8192]);

    await ant.messages.create({ model: deepseek, max_tokens: 32000, messages: [hello] });
    expect(world.mocks.customA.generations().map(asked), 'the limit is known now: no second 400').toEqual([32000, 8192, 8192]);

    // the log keeps both tries of the first request, and a second try at the same target is no fallback
    const entries = await world.daemon.logs((all) => all.filter((e) => e.modelAsked === deepseek).length >= 2);
    const [refitted] = entries.filter((e) => e.modelAsked === deepseek);
    expect(refitted!.attempts.map((a) => a.status)).toEqual([400, 200]);
    expect(refitted!.fallback).toBe(false);
    expect(refitted!.status).toBe(200);
  });

  it('OpenAI (Responses upstream): a Messages client converted, then a Responses client passthrough, streamed', async () => {
    const ant = world.daemon.anthropic();
    const out = await ant.messages.create({ model: 'openai/gpt-4.1', max_tokens: 64000, messages: [hello] });
    expect(out.content.some((b) => b.type === 'text')).toBe(true);
    const sentCap = (): unknown[] => world.mocks.openai.generations().map((r) => r.body.max_output_tokens);
    expect(sentCap()).toEqual([64000, 32768]);

    // the limit is the model's: a Responses client asking more goes within it at once
    const stream = await world.daemon.openai().responses.create({ model: 'openai/gpt-4.1', max_output_tokens: 50000, input: 'Hi', stream: true });
    const events = await collect(stream);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed' });
    expect(sentCap().slice(2), 'known now: no second 400').toEqual([32768]);

    // another model of the same provider is not capped by it
    await world.daemon.openai().responses.create({ model: 'openai/o3', max_output_tokens: 50000, input: 'Hi' });
    expect(sentCap().slice(3)).toEqual([50000]);
  });

  it('Gemini 2.0 states its range the other way round (the bound past the largest allowance)', async () => {
    await world.daemon.anthropic().messages.create({ model: 'gemini/gemini-2.0-flash', max_tokens: 32000, messages: [hello] });
    expect(world.mocks.gemini.generations().map(asked)).toEqual([32000, 8192]);
  });

  it('Chat client (passthrough, streamed): the same, and an allowance within the limit is left alone', async () => {
    const openai = world.daemon.openai();
    const chunks = await collect(
      await openai.chat.completions.create({ model: deepseek, max_completion_tokens: 50000, messages: [{ role: 'user', content: 'Hi' }], stream: true }),
    );
    expect(chunks.length).toBeGreaterThan(0);
    expect(world.mocks.customA.generations().map(asked).slice(-1)).toEqual([8192]);
    await openai.chat.completions.create({ model: deepseek, max_tokens: 1000, messages: [{ role: 'user', content: 'Hi' }] });
    expect(world.mocks.customA.lastGeneration().body.max_tokens).toBe(1000);
  });

  it('a limit from the context size fits this request only, and is not used when it leaves no room for an answer', async () => {
    const ant = world.daemon.anthropic();
    await ant.messages.create({ model: smallContext, max_tokens: 32000, messages: [hello] });
    const [refused, retried] = world.mocks.local.generations().map(asked) as number[];
    expect(refused).toBe(32000);
    expect(retried).toBeGreaterThan(16000);
    expect(retried).toBeLessThan(16384);

    await ant.messages.create({ model: smallContext, max_tokens: 32000, messages: [hello] });
    expect(world.mocks.local.generations().map(asked).slice(2, 3), 'not remembered: it depends on the input').toEqual([32000]);

    world.reset();
    const long = 'word '.repeat(61_000); // ~15,500 tokens of the 16,384
    const err = await ant.messages.create({ model: smallContext, max_tokens: 32000, messages: [{ role: 'user', content: long }] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(world.mocks.local.generations(), 'no second try for a few hundred tokens').toHaveLength(1);
  });
});

describe('a model that refuses a parameter the request carries', () => {
  const grok = `${SLUGS.customA}/grok-4`;
  const mistral = `${SLUGS.customA}/mistral-large-latest`;

  it('Messages client thinking on xAI: sent again without the effort, which the model is known to refuse from then on', async () => {
    const ant = world.daemon.anthropic();
    const thinking = { max_tokens: 8000, thinking: { type: 'enabled' as const, budget_tokens: 4000 }, messages: [hello] };
    const first = await ant.messages.create({ ...thinking, model: grok });
    expect(first.content.some((b) => b.type === 'text')).toBe(true);
    const [refused, retried] = world.mocks.customA.generations().map((r) => r.body);
    expect(refused).toHaveProperty('reasoning_effort');
    expect(retried).not.toHaveProperty('reasoning_effort');

    await ant.messages.create({ ...thinking, model: grok });
    expect(world.mocks.customA.generations(), 'known now: no second refusal').toHaveLength(3);
    const entries = await world.daemon.logs((all) => all.filter((e) => e.modelAsked === grok).length >= 2);
    for (const e of entries.filter((x) => x.modelAsked === grok)) {
      expect(e.status).toBe(200);
      expect(e.effortSent, 'no effort went upstream').toBeUndefined();
    }
  });

  it('Messages client streaming to Mistral (a 422 listing the fields): without stream_options', async () => {
    const stream = world.daemon.anthropic().messages.stream({ model: mistral, max_tokens: 1000, messages: [hello] });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text' });
    const [refused, retried] = world.mocks.customA.generations().map((r) => r.body);
    expect(refused).toHaveProperty('stream_options');
    expect(retried).not.toHaveProperty('stream_options');
    expect(retried).toMatchObject({ stream: true, max_tokens: 1000 });
  });

  it('Chat client (passthrough): every field the 422 lists in one more try; max_completion_tokens becomes max_tokens', async () => {
    const openai = world.daemon.openai();
    const out = await openai.chat.completions.create({
      model: mistral,
      store: false,
      presence_penalty: 0.1,
      max_completion_tokens: 500,
      temperature: 0.2,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(out.choices[0]!.message.content).toBeTruthy();
    const sent = world.mocks.customA.generations().map((r) => r.body);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ max_tokens: 500, temperature: 0.2 });
    for (const gone of ['store', 'presence_penalty', 'max_completion_tokens']) expect(sent[1]).not.toHaveProperty(gone);
  });
});

describe("a chat template that takes system text only in one place", () => {
  const qwen = `${SLUGS.local}/qwen3.6-27b`;
  const gemma = `${SLUGS.local}/gemma-2-9b-it`;

  it('Qwen (one system message, first): the leading ones merged, a later one kept in place as user text; remembered', async () => {
    const openai = world.daemon.openai();
    const messages = [
      { role: 'system' as const, content: 'You are opencode.' },
      { role: 'system' as const, content: 'Project rules.' },
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Hello.' },
      { role: 'system' as const, content: 'Reminder: be brief.' },
      { role: 'user' as const, content: 'And now?' },
    ];
    const out = await openai.chat.completions.create({ model: qwen, messages });
    expect(out.choices[0]!.message.content).toBeTruthy();
    const sent = world.mocks.local.generations().map((r) => r.body.messages as Array<{ role: string; content: unknown }>);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual([
      { role: 'system', content: 'You are opencode.\n\nProject rules.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'Reminder: be brief.' },
      { role: 'user', content: 'And now?' },
    ]);
    await openai.chat.completions.create({ model: qwen, messages });
    expect(world.mocks.local.generations(), 'known now: no second refusal').toHaveLength(3);
  });

  it('Gemma 2 (no system role): a Messages client’s system prompt opens the first user turn', async () => {
    const out = await world.daemon.anthropic().messages.create({ model: gemma, max_tokens: 500, system: 'Be terse.', messages: [hello] });
    expect(out.content[0]).toMatchObject({ type: 'text' });
    const retried = world.mocks.local.lastGeneration().body.messages as Array<{ role: string; content: unknown }>;
    expect(retried.some((m) => m.role === 'system')).toBe(false);
    expect(JSON.stringify(retried[0])).toContain('Be terse.');
    expect(JSON.stringify(retried[0])).toContain('Hello');
  });
});
