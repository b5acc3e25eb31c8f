/**
 * Model groups (issue 4) end to end with the official SDKs: ordered fallback on 500, 429,
 * connection refused and timeout, streamed (before the first byte) and not; no fallback on a
 * client-caused 400 or after the first byte; answered-by headers; group models list and retrieve; unknown name
 * and slug errors; a log entry with every attempt for each case.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/log/entry.js';
import { chatStreamText, collect, errorCode, rejection } from '../fixtures/e2e-helpers.js';
import { closedPortUrl } from '../fixtures/ports.js';
import { MODELS, startWorld, type World } from '../fixtures/world.js';

const GROUP = 'team';
const NAMES = {
  claude: 'claude-sonnet-4.5', // anthropic first, then custom endpoint ca
  gpt: 'gpt-5.4/fast', // a name with "/" and "."
  refused: 'refused', // an endpoint where nothing listens, then ca
  allFail: 'all-fail', // anthropic, then openrouter
  audio: 'listen', // anthropic (cannot take input_audio), then openrouter
  audioNone: 'listen-nowhere', // anthropic, then openai: neither takes input_audio
  router: 'routed', // openrouter, then ca
  backwards: 'ca-then-dead', // ca, then an endpoint where nothing listens
  downshift: 'reason-then-plain', // gpt-5.4 (reasons), then gpt-4.1 (does not)
};
const TARGETS = {
  [NAMES.claude]: [MODELS.anthropic, MODELS.customA],
  [NAMES.gpt]: [MODELS.openai, 'openrouter/openai/gpt-5'],
  [NAMES.refused]: ['dead/m1', MODELS.customA],
  [NAMES.allFail]: [MODELS.anthropic, MODELS.openrouter],
  [NAMES.audio]: [MODELS.anthropic, MODELS.openrouter],
  [NAMES.audioNone]: [MODELS.anthropic, MODELS.openai],
  [NAMES.router]: [MODELS.openrouter, MODELS.customA],
  [NAMES.backwards]: [MODELS.customA, 'dead/m1'],
  [NAMES.downshift]: [MODELS.openai, 'openai/gpt-4.1'],
};
const TIMEOUT_MS = 1_500;

let world: World;
let chat: OpenAI;
let ant: Anthropic;

beforeAll(async () => {
  world = await startWorld({
    settings: { connectTimeoutMs: 1_000, headersTimeoutMs: TIMEOUT_MS, idleTimeoutMs: TIMEOUT_MS },
    setup: async (d) => {
      await d.cli(['endpoint', 'add', 'dead', '--url', await closedPortUrl('/v1'), '--format', 'a', '--no-credential']);
      const args = ['group', 'add', GROUP];
      for (const [name, targets] of Object.entries(TARGETS)) args.push('--model', `${name}=${targets.join(',')}`);
      await d.cli(args);
    },
  });
  chat = world.daemon.openai({ group: GROUP });
  ant = world.daemon.anthropic({ group: GROUP });
}, 60_000);
afterAll(async () => world?.close());

let since = '';
beforeEach(() => {
  world?.reset();
  since = new Date().toISOString();
});

/** The log entry for this test's request for `name` (polls until it shows up). */
async function logged(name: string): Promise<RequestLogEntry> {
  const entries = await world.daemon.logs((l) => l.some((e) => e.modelAsked === name && e.time >= since));
  const entry = entries.filter((e) => e.modelAsked === name && e.time >= since).pop();
  expect(entry, `a log entry for ${name}`).toBeDefined();
  expect(entry!.base).toBe(`group:${GROUP}`);
  return entry!;
}

function attempts(e: RequestLogEntry): Array<[string, number]> {
  return e.attempts.map((a) => [a.target, a.status]);
}

describe('group models', () => {
  it('GET models lists exactly the group names, in each base\'s shape', async () => {
    const ids: string[] = [];
    for await (const m of chat.models.list()) ids.push(m.id);
    expect(ids.sort()).toEqual(Object.keys(TARGETS).sort());
    const page = await ant.models.list({ limit: 1000 });
    expect(page.data.map((m) => m.id).sort()).toEqual(Object.keys(TARGETS).sort());
    // paged as Anthropic pages: the SDK's walk meets every name once
    const walked: string[] = [];
    for await (const m of ant.models.list({ limit: 2 })) walked.push(m.id);
    expect(walked).toEqual(page.data.map((m) => m.id));
    expect((await ant.models.list({ limit: 2 })).has_more).toBe(true);
    // a name's window is its targets' smallest, when every target's list states one
    const byName = new Map(page.data.map((m) => [m.id, m]));
    expect(byName.get(NAMES.allFail)).toMatchObject({ max_input_tokens: 200_000 }); // anthropic 200k, openrouter 1M
    expect(byName.get(NAMES.claude)).not.toHaveProperty('max_input_tokens'); // ca's list states none
  });

  it('GET models/{id} answers the name\'s list entry on both protocols; a name the group lacks → 404 model_not_found', async () => {
    const listedA: OpenAI.Models.Model[] = [];
    for await (const m of chat.models.list()) listedA.push(m);
    const listedB = (await ant.models.list({ limit: 1000 })).data;
    for (const name of [NAMES.gpt, NAMES.claude]) {
      expect({ ...(await chat.models.retrieve(name)) }, name).toEqual(listedA.find((m) => m.id === name));
      expect({ ...(await ant.models.retrieve(name)) }, name).toEqual(listedB.find((m) => m.id === name));
      expect({ ...(await ant.beta.models.retrieve(name)) }, name).toEqual(listedB.find((m) => m.id === name));
    }
    for (const e of [await rejection(chat.models.retrieve(MODELS.anthropic)), await rejection(ant.models.retrieve(MODELS.anthropic))]) {
      expect(e.status).toBe(404);
      expect(errorCode(e)).toBe('model_not_found');
      expect(e.message).toContain(NAMES.claude);
    }
  });

  it('a name the group does not have → 404 model_not_found listing the names; nothing sent upstream', async () => {
    const e = await rejection(chat.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }));
    expect(e.status).toBe(404);
    expect(errorCode(e)).toBe('model_not_found');
    expect(e.message).toContain(NAMES.claude);
    const b = await rejection(ant.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }));
    expect(b.status).toBe(404);
    expect(errorCode(b)).toBe('model_not_found');
    expect(world.mocks.anthropic.requests).toHaveLength(0);
  });

  it('an unknown slug → 404 group_not_found on both protocols', async () => {
    const a = await rejection(world.daemon.openai({ group: 'nope' }).chat.completions.create({ model: NAMES.claude, messages: [{ role: 'user', content: 'x' }] }));
    expect(a.status).toBe(404);
    expect(errorCode(a)).toBe('group_not_found');
    const b = await rejection(world.daemon.anthropic({ group: 'nope' }).messages.create({ model: NAMES.claude, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }));
    expect(b.status).toBe(404);
    expect(errorCode(b)).toBe('group_not_found');
  });

  it('a name with "/" and "." routes to its target; headers and body name who answered', async () => {
    const { data, response } = await chat.chat.completions.create({ model: NAMES.gpt, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe('Echo: hi');
    expect(response.headers.get('x-svc-upstream-provider')).toBe('openai');
    expect(response.headers.get('x-svc-upstream-model')).toBe('gpt-5.4');
    expect(data.model).toBe('openai/gpt-5.4');
    expect(world.mocks.openai.lastGeneration().body.model).toBe('gpt-5.4');
  });
});

describe('fallback, not streamed', () => {
  it('500 → next target answers; headers name it; log has both attempts', async () => {
    world.mocks.anthropic.next(world.mocks.anthropic.error(500, 'Internal server error'));
    const { data, response } = await chat.chat.completions.create({ model: NAMES.claude, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe('Echo: hi');
    expect(response.headers.get('x-svc-upstream-provider')).toBe('ca');
    expect(response.headers.get('x-svc-upstream-model')).toBe('qwen3-coder');
    expect(data.model).toBe('ca/qwen3-coder');
    expect(world.mocks.anthropic.generations()).toHaveLength(1);
    expect(world.mocks.customA.lastGeneration().body.model).toBe('qwen3-coder');
    const entry = await logged(NAMES.claude);
    expect(attempts(entry)).toEqual([
      [MODELS.anthropic, 500],
      [MODELS.customA, 200],
    ]);
    expect(entry).toMatchObject({ status: 200, provider: 'ca', model: 'qwen3-coder', fallback: true, streamed: false });
    for (const a of entry.attempts) expect(a.latencyMs).toBeGreaterThanOrEqual(0);
    expect(entry.attempts[0]!.errorCode).toBeTruthy();
  });

  it('429 (with Retry-After) → next target; Messages client', async () => {
    world.mocks.anthropic.next(world.mocks.anthropic.error(429, 'Number of request tokens has exceeded your per-minute rate limit', { retryAfter: 30 }));
    const { data, response } = await ant.messages.create({ model: NAMES.claude, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.content).toEqual([expect.objectContaining({ type: 'text', text: 'Echo: hi' })]);
    expect(response.headers.get('x-svc-upstream-provider')).toBe('ca');
    expect(response.headers.get('x-svc-upstream-model')).toBe('qwen3-coder');
    expect(data.model).toBe('ca/qwen3-coder');
    expect(attempts(await logged(NAMES.claude))).toEqual([
      [MODELS.anthropic, 429],
      [MODELS.customA, 200],
    ]);
  });

  it('connection refused → next target', async () => {
    const { data, response } = await chat.chat.completions.create({ model: NAMES.refused, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe('Echo: hi');
    expect(response.headers.get('x-svc-upstream-provider')).toBe('ca');
    const entry = await logged(NAMES.refused);
    expect(attempts(entry)).toEqual([
      ['dead/m1', 0],
      [MODELS.customA, 200],
    ]);
    expect(entry.attempts[0]!.errorCode).toBeTruthy();
  });

  it('timeout (no response headers) → next target after the configured timeout', async () => {
    world.mocks.anthropic.next({ kind: 'hang' });
    const t0 = performance.now();
    const res = await ant.messages.create({ model: NAMES.claude, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    const took = performance.now() - t0;
    expect(res.content[0]).toMatchObject({ text: 'Echo: hi' });
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    const hung = world.mocks.anthropic.lastGeneration();
    // the mock hangs for good: only the daemon abandoning the request ends it (or the test times out)
    await hung.done;
    expect(hung.closedEarly, 'the timed-out upstream request is abandoned').toBe(true);
    const entry = await logged(NAMES.claude);
    expect(attempts(entry)).toEqual([
      [MODELS.anthropic, 0],
      [MODELS.customA, 200],
    ]);
    expect(entry.attempts[0]!.errorCode).toBeTruthy();
  });

  it('a 400 the request caused → no fallback; the client gets that 400', async () => {
    world.mocks.anthropic.next(world.mocks.anthropic.error(400, 'messages.0.content.0.image.source.base64: invalid base64 data'));
    const e = await rejection(chat.chat.completions.create({ model: NAMES.claude, messages: [{ role: 'user', content: 'hi' }] }));
    expect(e.status).toBe(400);
    expect(e.message).toContain('invalid base64 data');
    expect(world.mocks.customA.requests).toHaveLength(0);
    const entry = await logged(NAMES.claude);
    expect(attempts(entry)).toEqual([[MODELS.anthropic, 400]]);
    expect(entry.status).toBe(400);
  });

  it('a context-length 400 does fall back', async () => {
    world.mocks.anthropic.next(world.mocks.anthropic.error(400, 'prompt is too long: 215000 tokens > 200000 maximum'));
    const res = await chat.chat.completions.create({ model: NAMES.claude, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.choices[0]!.message.content).toBe('Echo: hi');
    expect(attempts(await logged(NAMES.claude))).toEqual([
      [MODELS.anthropic, 400],
      [MODELS.customA, 200],
    ]);
  });

  it('every target fails → the last target\'s error, in the client\'s shape', async () => {
    world.mocks.anthropic.next(world.mocks.anthropic.error(529, 'Overloaded'));
    world.mocks.openrouter.next(world.mocks.openrouter.error(503, 'No instances available'));
    const a = await rejection(chat.chat.completions.create({ model: NAMES.allFail, messages: [{ role: 'user', content: 'hi' }] }));
    expect(a.status).toBe(503);
    expect(a.message).toContain('No instances available');
    expect(a.message).toContain(`(tried before it: ${MODELS.anthropic} 529 upstream_overloaded)`);
    expect(typeof errorCode(a)).toBe('string');
    const entry = await logged(NAMES.allFail);
    expect(attempts(entry)).toEqual([
      [MODELS.anthropic, 529],
      [MODELS.openrouter, 503],
    ]);
    expect(entry.status).toBe(503);

    world.mocks.anthropic.next(world.mocks.anthropic.error(500, 'boom'));
    world.mocks.openrouter.next(world.mocks.openrouter.error(429, 'Rate limit exceeded'));
    const b = await rejection(ant.messages.create({ model: NAMES.allFail, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }));
    expect(b.status).toBe(429);
    expect((b.error as { type?: string; error?: { type?: string } }).error?.type).toBe('rate_limit_error');
  });

  it("every target fails, the last unreachable → an earlier target's Retry-After still reaches the client", async () => {
    world.mocks.customA.next(world.mocks.customA.error(429, 'slow down', { retryAfter: 9 }));
    const res = await fetch(`${world.daemon.origin}/g/${GROUP}/protocol-a/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.daemon.key}` },
      body: JSON.stringify({ model: NAMES.backwards, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(502);
    expect(res.headers.get('retry-after')).toBe('9');
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('upstream_unreachable');
    expect(body.error.message).toContain(`(tried before it: ${MODELS.customA} 429 upstream_rate_limited)`);
  });
});

describe("Codex's reasoning history, sent on to a model that does not reason", () => {
  // a Codex turn after gpt-5 reasoned: its encrypted reasoning item replayed, store off
  const input = (): OpenAI.Responses.ResponseInput => [
    { role: 'user', content: `Weather in Paris? ${'Context. '.repeat(600)}` },
    { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: world.mocks.openai.issueEncrypted() },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
  ];
  const types = (body: Record<string, unknown>): unknown[] => (body.input as Array<Record<string, unknown>>).map((i) => i.type ?? i.role);

  it('gpt-5.4 fails → gpt-4.1 gets the turn without the reasoning items; a direct gpt-4.1 request too', async () => {
    world.mocks.openai.next(world.mocks.openai.error(500, 'Internal server error'));
    const { data, response } = await chat.responses.create({ model: NAMES.downshift, input: input(), store: false }).withResponse();
    expect(data.output_text).toBe('Tool said: sunny');
    expect(response.headers.get('x-svc-upstream-model')).toBe('gpt-4.1');
    const [first, second] = world.mocks.openai.generations();
    expect(first!.body.model).toBe('gpt-5.4');
    expect(types(first!.body)).toContain('reasoning');
    expect(second!.body.model).toBe('gpt-4.1');
    expect(types(second!.body)).toEqual(['user', 'function_call', 'function_call_output']);

    const direct = await world.daemon.openai().responses.create({ model: 'openai/gpt-4.1', input: input(), store: false });
    expect(direct.output_text).toBe('Tool said: sunny');
    expect(types(world.mocks.openai.lastGeneration().body)).toEqual(['user', 'function_call', 'function_call_output']);
  });
});

describe('policy checks per target', () => {
  const audio: OpenAI.Chat.ChatCompletionMessageParam = {
    role: 'user',
    content: [
      { type: 'text', text: 'What is said here?' },
      { type: 'input_audio', input_audio: { data: Buffer.from('RIFFfakewav').toString('base64'), format: 'wav' } },
    ],
  };

  it('a target that cannot take the request is skipped with its reason; the next one answers', async () => {
    const { response } = await chat.chat.completions.create({ model: NAMES.audio, messages: [audio] }).withResponse();
    expect(response.headers.get('x-svc-upstream-provider')).toBe('openrouter');
    expect(world.mocks.anthropic.requests).toHaveLength(0);
    const entry = await logged(NAMES.audio);
    expect(entry.attempts.map((a) => [a.target, a.status])).toEqual([
      [MODELS.anthropic, 0],
      [MODELS.openrouter, 200],
    ]);
    expect(entry.attempts[0]!.skipped, 'the skip reason').toBeTruthy();
  });

  it('when no target can take it, the client gets the 400 of the first', async () => {
    const e = await rejection(chat.chat.completions.create({ model: NAMES.audioNone, messages: [audio] }));
    expect(e.status).toBe(400);
    expect(errorCode(e)).toBe('unsupported_modality');
    expect(e.message).toMatch(/anthropic/i);
    expect(world.mocks.anthropic.requests).toHaveLength(0);
    expect(world.mocks.openai.requests).toHaveLength(0);
  });
});

describe('fallback, streamed (only before the first byte)', () => {
  it('500 before the stream started → next target streams; no answered-by headers on streams', async () => {
    world.mocks.anthropic.next(world.mocks.anthropic.error(500, 'Internal server error'));
    const { data: stream, response } = await chat.chat.completions.create({ model: NAMES.claude, messages: [{ role: 'user', content: 'hi' }], stream: true }).withResponse();
    expect(chatStreamText(await collect(stream))).toBe('Echo: hi');
    expect(response.headers.get('x-svc-upstream-provider')).toBeNull();
    expect(response.headers.get('x-svc-upstream-model')).toBeNull();
    const entry = await logged(NAMES.claude);
    expect(attempts(entry)).toEqual([
      [MODELS.anthropic, 500],
      [MODELS.customA, 200],
    ]);
    expect(entry.streamed).toBe(true);
  });

  it('429 before the stream started → next target (Messages client stream)', async () => {
    world.mocks.anthropic.next(world.mocks.anthropic.error(429, 'rate limited', { retryAfter: 5 }));
    const final = await ant.messages.stream({ model: NAMES.claude, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: 'Echo: hi' })]);
    expect(attempts(await logged(NAMES.claude))).toEqual([
      [MODELS.anthropic, 429],
      [MODELS.customA, 200],
    ]);
  });

  it('connection refused → next target (stream)', async () => {
    const chunks = await collect(await chat.chat.completions.create({ model: NAMES.refused, messages: [{ role: 'user', content: 'hi' }], stream: true }));
    expect(chatStreamText(chunks)).toBe('Echo: hi');
    expect(attempts(await logged(NAMES.refused))).toEqual([
      ['dead/m1', 0],
      [MODELS.customA, 200],
    ]);
  });

  it('timeout before headers → next target (stream)', async () => {
    world.mocks.anthropic.next({ kind: 'hang' });
    const final = await ant.messages.stream({ model: NAMES.claude, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(final.content[0]).toMatchObject({ text: 'Echo: hi' });
    expect(attempts(await logged(NAMES.claude))).toEqual([
      [MODELS.anthropic, 0],
      [MODELS.customA, 200],
    ]);
  });

  it("OpenRouter's processing comment, then an error chunk → next target (Chat stream, passthrough)", async () => {
    const error = { error: { code: 502, message: 'Provider returned error', metadata: { provider_name: 'X' } } };
    world.mocks.openrouter.next({ kind: 'sse', events: [{ comment: 'OPENROUTER PROCESSING' }, { data: error, delayMs: 30 }] });
    const chunks = await collect(await chat.chat.completions.create({ model: NAMES.router, messages: [{ role: 'user', content: 'hi' }], stream: true }));
    expect(chatStreamText(chunks)).toBe('Echo: hi');
    expect(attempts(await logged(NAMES.router))).toEqual([
      [MODELS.openrouter, 502],
      [MODELS.customA, 200],
    ]);
  });

  it('an opening error event cut across two reads → next target (Messages stream, passthrough)', async () => {
    const event = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    world.mocks.anthropic.next({ kind: 'sse', events: [{ raw: event.slice(0, 10) }, { raw: event.slice(10), delayMs: 50 }] });
    const final = await ant.messages.stream({ model: NAMES.claude, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(final.content[0]).toMatchObject({ text: 'Echo: hi' });
    expect(attempts(await logged(NAMES.claude))).toEqual([
      [MODELS.anthropic, 529],
      [MODELS.customA, 200],
    ]);
  });

  it("message_start, then Anthropic's overloaded_error → next target (the envelope is held while targets are left)", async () => {
    // passthrough to a Messages client
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'never sent', stream: { errorAfter: 1 } } });
    const final = await ant.messages.stream({ model: NAMES.claude, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: 'Echo: hi' })]);
    expect(attempts(await logged(NAMES.claude))).toEqual([
      [MODELS.anthropic, 529],
      [MODELS.customA, 200],
    ]);
    // converted for a Chat client
    since = new Date().toISOString();
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'never sent', stream: { errorAfter: 1 } } });
    const chunks = await collect(await chat.chat.completions.create({ model: NAMES.claude, messages: [{ role: 'user', content: 'hi' }], stream: true }));
    expect(chatStreamText(chunks)).toBe('Echo: hi');
    expect(chunks.filter((c) => c.choices[0]?.delta?.role === 'assistant')).toHaveLength(1);
    expect(attempts(await logged(NAMES.claude))).toEqual([
      [MODELS.anthropic, 529],
      [MODELS.customA, 200],
    ]);
  });

  it('response.created, then an error event → next target (Responses stream, passthrough)', async () => {
    world.mocks.openai.next({ kind: 'turn', turn: { text: 'never sent', stream: { errorAfter: 1 } } });
    const stream = await chat.responses.create({ model: NAMES.gpt, input: 'hi', stream: true });
    const events: string[] = [];
    let text = '';
    for await (const e of stream) {
      events.push(e.type);
      if (e.type === 'response.output_text.delta') text += e.delta;
    }
    expect(text).toBe('Echo: hi');
    expect(events.filter((t) => t === 'response.created')).toHaveLength(1);
    expect(events).not.toContain('error');
    const tried = attempts(await logged(NAMES.gpt));
    expect(tried.map((a) => a[0])).toEqual([MODELS.openai, 'openrouter/openai/gpt-5']);
    expect(tried[1]![1]).toBe(200);
  });

  it('the last target (and a provider base) sends its envelope at once: an error after it ends the stream', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'never sent', stream: { errorAfter: 1 } } });
    const res = await fetch(`${world.daemon.origin}/protocol-b/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': world.daemon.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODELS.anthropic, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.indexOf('event: message_start')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('event: error')).toBeGreaterThan(text.indexOf('event: message_start'));
    expect(world.mocks.customA.requests).toHaveLength(0);
  });

  it('a failure after the first byte reached the client → no fallback; the stream ends with an error event', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'partial answer that will be cut', stream: { chunk: 4, resetAfter: 5 } } });
    const stream = await chat.chat.completions.create({ model: NAMES.claude, messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    const err = await (async () => {
      try {
        for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(err, 'the client sees the failure').toBeDefined();
    expect(text.length).toBeGreaterThan(0);
    expect(world.mocks.customA.requests).toHaveLength(0);
    expect(attempts(await logged(NAMES.claude))).toEqual([[MODELS.anthropic, 200]]);
  });
});

describe('answered-by headers on provider bases', () => {
  it('name the provider and the model the upstream reported (OpenRouter model field)', async () => {
    world.mocks.openrouter.next({ kind: 'turn', turn: { text: 'hi', model: 'anthropic/claude-4.5-sonnet-20250929' } });
    const { data, response } = await world.daemon.openai().chat.completions.create({ model: MODELS.openrouter, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(response.headers.get('x-svc-upstream-provider')).toBe('openrouter');
    expect(response.headers.get('x-svc-upstream-model')).toBe('anthropic/claude-4.5-sonnet-20250929');
    expect(data.model).toBe('openrouter/anthropic/claude-4.5-sonnet-20250929');
  });

  it('Messages client to gemini: provider gemini, model without models/', async () => {
    const { response } = await world.daemon.anthropic().messages.create({ model: MODELS.gemini, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(response.headers.get('x-svc-upstream-provider')).toBe('gemini');
    expect(response.headers.get('x-svc-upstream-model')).toBe('gemini-2.5-flash');
  });
});
