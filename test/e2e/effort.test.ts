/**
 * Reasoning effort, exactly as issue 3 specifies it: read from each client dialect, lowered to
 * the target's highest, `none` per provider, each provider's own field, invalid values refused
 * before anything is sent, the value actually sent in the request log.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorCode, rejection } from '../fixtures/e2e-helpers.js';
import { MODELS, SLUGS, startWorld, type Kind, type World } from '../fixtures/world.js';

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

type Body = Record<string, unknown> & { reasoning?: Record<string, unknown>; thinking?: Record<string, unknown>; output_config?: Record<string, unknown> };

async function viaChat(kind: Kind, effort: string): Promise<Body> {
  await chat.chat.completions.create({
    model: MODELS[kind],
    messages: [{ role: 'user', content: 'think' }],
    reasoning_effort: effort as OpenAI.ReasoningEffort,
    max_completion_tokens: 32_000,
  });
  return world.mock(kind).lastGeneration().body as Body;
}

describe('chat client reasoning_effort → each provider', () => {
  it.each([
    ['xhigh', 'high'],
    ['max', 'high'],
    ['medium', 'medium'],
    ['low', 'low'],
    ['none', 'none'],
  ])('gemini: %s arrives as reasoning_effort "%s"', async (asked, sent) => {
    const body = await viaChat('gemini', asked);
    expect(body.reasoning_effort).toBe(sent);
  });

  it('openai: none → no effort field at all (the model uses its default)', async () => {
    const body = await viaChat('openai', 'none');
    expect(body.reasoning?.effort).toBeUndefined();
    expect(body.reasoning_effort).toBeUndefined();
  });

  it.each([
    ['xhigh', 'xhigh'],
    ['max', 'xhigh'],
    ['low', 'low'],
  ])('openai: %s arrives as reasoning.effort "%s"', async (asked, sent) => {
    const body = await viaChat('openai', asked);
    expect(body.reasoning?.effort).toBe(sent);
  });

  it.each([
    ['high', 'high'],
    ['max', 'xhigh'],
  ])('openrouter: %s arrives as reasoning:{effort:"%s"} (its own field)', async (asked, sent) => {
    const body = await viaChat('openrouter', asked);
    expect(body.reasoning).toMatchObject({ effort: sent });
    expect(body.reasoning_effort).toBeUndefined();
  });

  it('openrouter: none turns reasoning off', async () => {
    const body = await viaChat('openrouter', 'none');
    const r = body.reasoning ?? {};
    expect(r.effort === 'none' || r.enabled === false, JSON.stringify(r)).toBe(true);
  });

  it('anthropic: high turns thinking on with Anthropic\'s own controls; none turns it off', async () => {
    const on = await viaChat('anthropic', 'high');
    expect(['enabled', 'adaptive']).toContain(on.thinking?.type);
    if (on.thinking?.type === 'enabled') expect(on.max_tokens as number).toBeGreaterThan(on.thinking.budget_tokens as number);
    expect(on.reasoning_effort).toBeUndefined();
    const off = await viaChat('anthropic', 'none');
    expect(off.thinking === undefined || off.thinking.type === 'disabled', JSON.stringify(off.thinking)).toBe(true);
    expect(off.output_config?.effort).toBeUndefined();
  });

  it.each([
    ['customA', 'xhigh'],
    ['customA', 'max'],
    ['local', 'high'],
    ['local', 'none'],
  ] as Array<[Kind, string]>)('%s: %s is sent as given, never lowered', async (kind, effort) => {
    const body = await viaChat(kind, effort);
    expect(body.reasoning_effort).toBe(effort);
  });

  it('local (an Ollama name:tag model): max goes first as given, then once at high when Ollama refuses it', async () => {
    const body = await viaChat('local', 'max');
    const sent = world.mock('local').generations().map((g) => (g.body as Body).reasoning_effort);
    expect(sent).toEqual(['max', 'high']);
    expect(body.reasoning_effort).toBe('high');
  });

  it('custom endpoint format b from protocol A: effort not sent', async () => {
    const body = await viaChat('customB', 'high');
    expect(body.thinking).toBeUndefined();
    expect(body.output_config?.effort).toBeUndefined();
    expect(body.reasoning_effort).toBeUndefined();
  });

  it('an unknown effort is refused with 400 invalid_reasoning before anything goes upstream', async () => {
    const e = await rejection(chat.chat.completions.create({ model: MODELS.gemini, messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'extreme' as OpenAI.ReasoningEffort }));
    expect(e.status).toBe(400);
    expect(errorCode(e)).toBe('invalid_reasoning');
    expect(world.mocks.gemini.requests).toHaveLength(0);
  });
});

describe('responses client reasoning.effort', () => {
  it('openai passthrough: none leaves the field out, max is lowered to xhigh', async () => {
    await chat.responses.create({ model: MODELS.openai, input: 'x', reasoning: { effort: 'none' } });
    expect((world.mocks.openai.lastGeneration().body as Body).reasoning?.effort).toBeUndefined();
    await chat.responses.create({ model: MODELS.openai, input: 'x', reasoning: { effort: 'max' as OpenAI.ReasoningEffort } });
    expect((world.mocks.openai.lastGeneration().body as Body).reasoning?.effort).toBe('xhigh');
  });

  it('gemini: xhigh → high', async () => {
    await chat.responses.create({ model: MODELS.gemini, input: 'x', reasoning: { effort: 'xhigh' } });
    expect(world.mocks.gemini.lastGeneration().body.reasoning_effort).toBe('high');
  });
});

describe('messages client output_config.effort / thinking budget', () => {
  it.each([
    [{ output_config: { effort: 'xhigh' } }, 'high'],
    [{ thinking: { type: 'enabled', budget_tokens: 20_000 } }, 'high'],
    [{ thinking: { type: 'enabled', budget_tokens: 2_000 } }, 'low'],
    [{ thinking: { type: 'disabled' } }, 'none'],
  ])('gemini: %j → reasoning_effort %s', async (extra, sent) => {
    await ant.messages.create({ model: MODELS.gemini, max_tokens: 32_000, messages: [{ role: 'user', content: 'x' }], ...(extra as object) });
    expect(world.mocks.gemini.lastGeneration().body.reasoning_effort).toBe(sent);
  });

  it('custom endpoint format b: thinking settings pass through unchanged', async () => {
    const thinking = { type: 'enabled' as const, budget_tokens: 3_000 };
    await ant.messages.create({ model: MODELS.customB, max_tokens: 8_000, thinking, output_config: { effort: 'medium' }, messages: [{ role: 'user', content: 'x' }] });
    const body = world.mocks.customB.lastGeneration().body as Body;
    expect(body.thinking).toEqual(thinking);
    expect(body.output_config).toEqual({ effort: 'medium' });
  });

  it('an unknown output_config.effort is refused with 400 invalid_reasoning', async () => {
    const e = await rejection(
      ant.messages.create({ model: MODELS.openrouter, max_tokens: 100, output_config: { effort: 'bogus' as 'high' }, messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(e.status).toBe(400);
    expect(errorCode(e)).toBe('invalid_reasoning');
    expect(world.mocks.openrouter.requests).toHaveLength(0);
  });
});

describe('a model that takes fewer levels than the adapter knows of', () => {
  // gpt-9-pro: the OpenAI mock's stand-in for a model newer than the adapter's table, 'high' only
  it('the 400 listing the levels is read, the request sent again at the nearest, and the levels remembered', async () => {
    const out = await chat.chat.completions.create({ model: 'openai/gpt-9-pro', messages: [{ role: 'user', content: 'think' }], reasoning_effort: 'medium' });
    expect(out.choices[0]!.message.content).toBeTruthy();
    const sent = (): unknown[] => world.mocks.openai.generations().map((r) => (r.body as Body).reasoning?.effort);
    expect(sent()).toEqual(['medium', 'high']);

    await ant.messages.create({ model: 'openai/gpt-9-pro', max_tokens: 2000, messages: [{ role: 'user', content: 'think' }], output_config: { effort: 'low' } } as Anthropic.MessageCreateParamsNonStreaming);
    expect(sent().slice(2), 'known now: no second 400').toEqual(['high']);

    const entries = await world.daemon.logs((l) => l.filter((e) => e.modelAsked === 'openai/gpt-9-pro').length >= 2);
    const [first] = entries.filter((e) => e.modelAsked === 'openai/gpt-9-pro');
    expect(first!.attempts.map((a) => a.status)).toEqual([400, 200]);
    expect(first!.effortSent, 'the log says what went the second time').toBe('high');
  });
});

describe('a local vLLM that takes only low, medium and high', () => {
  // Codex asks for xhigh; vLLM's pydantic Literal refuses it and lists the levels it takes
  const qwen = `${SLUGS.local}/Qwen/Qwen3-32B`;

  it('the level asked is snapped to the highest it lists, and the next request goes so at once', async () => {
    const openai = world.daemon.openai();
    const res = await openai.responses.create({ model: qwen, input: 'think', reasoning: { effort: 'xhigh' } });
    expect(res.output_text).toBeTruthy();
    const sent = (): unknown[] => world.mocks.local.generations().map((r) => (r.body as Body).reasoning_effort);
    expect(sent()).toEqual(['xhigh', 'high']);

    await ant.messages.create({ model: qwen, max_tokens: 2000, messages: [{ role: 'user', content: 'think' }], output_config: { effort: 'max' } } as Anthropic.MessageCreateParamsNonStreaming);
    expect(sent().slice(2), 'known now: no second 400').toEqual(['high']);
  });
});

describe('request log', () => {
  it('records the effort asked and the effort actually sent', async () => {
    await viaChat('gemini', 'xhigh');
    const entries = await world.daemon.logs((l) => l.some((e) => e.effortAsked === 'xhigh'));
    const entry = entries.filter((e) => e.modelAsked === MODELS.gemini && e.effortAsked === 'xhigh').pop();
    expect(entry, 'log entry for the xhigh request').toBeDefined();
    expect(entry!.effortSent).toBe('high');
  });
});

describe('effort levels from Anthropic’s model list', () => {
  it('once `svc-proxy models` has listed Anthropic, a level its list says the model lacks goes as the nearest it takes', async () => {
    const anthropic = world.mocks.anthropic;
    // Sonnet 4.6's id reads as taking max; this list says low to high
    if (!anthropic.models.includes('claude-sonnet-4-6')) anthropic.models.push('claude-sonnet-4-6');
    anthropic.efforts['claude-sonnet-4-6'] = ['low', 'medium', 'high'];
    const ask = async (): Promise<Body> => {
      await ant.messages.create({ model: 'anthropic/claude-sonnet-4-6', max_tokens: 1000, thinking: { type: 'adaptive' }, output_config: { effort: 'max' }, messages: [{ role: 'user', content: 'think' }] });
      return anthropic.lastGeneration().body as Body;
    };
    const listed = await world.daemon.cli(['models', 'anthropic', '--json']);
    const entry = (JSON.parse(listed.stdout) as { models: Array<{ id: string; efforts?: string[] }> }).models.find((m) => m.id === 'anthropic/claude-sonnet-4-6');
    expect(entry?.efforts).toEqual(['low', 'medium', 'high']);
    expect((await ask()).output_config?.effort).toBe('high');
  });
});
