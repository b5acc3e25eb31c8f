/**
 * An upstream that refuses with only its rate-limit reset headers (no retry-after): every path
 * that carries retry advice gives the client the wait they imply as retry-after and
 * retry-after-ms, through the official SDKs — passthrough, converted, a group whose targets all
 * failed, the calls relayed to OpenAI, token counts, transcriptions, a model list — and a group
 * target cools down for that wait.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openrouterError } from '../fixtures/mock-upstream/index.js';
import { post, startHarness, type Harness } from './harness.js';

type ApiError = { status: number; headers: Headers };

/** What a call was refused with; fails the test when it was answered. */
async function refusal(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('the call was answered');
}

const advice = (headers: Headers) => [headers.get('retry-after'), headers.get('retry-after-ms')];
const adviceOf = (r: { headers: Record<string, string | string[] | undefined> }) => [r.headers['retry-after'] ?? null, r.headers['retry-after-ms'] ?? null];

/** OpenAI's headers on a 429 for its requests-per-minute limit (Go durations). */
const openaiLimited = (reset: string) => ({
  'x-ratelimit-limit-requests': '60',
  'x-ratelimit-remaining-requests': '0',
  'x-ratelimit-reset-requests': reset,
  'x-ratelimit-limit-tokens': '150000',
  'x-ratelimit-remaining-tokens': '149984',
  'x-ratelimit-reset-tokens': '6m0s',
});

/** Anthropic's headers with its input-token limit exhausted (RFC 3339 times). */
const anthropicLimited = (inMs: number) => ({
  'anthropic-ratelimit-requests-limit': '50',
  'anthropic-ratelimit-requests-remaining': '49',
  'anthropic-ratelimit-requests-reset': new Date(Date.now() + 2_000).toISOString(),
  'anthropic-ratelimit-input-tokens-limit': '40000',
  'anthropic-ratelimit-input-tokens-remaining': '0',
  'anthropic-ratelimit-input-tokens-reset': new Date(Date.now() + inMs).toISOString(),
});

/** A retry-after derived from a wait of about `seconds` (an RFC 3339 reset is a little less by the time it is read). */
function expectAbout(headers: Headers, seconds: number): void {
  const [after, afterMs] = advice(headers);
  expect(after).toBe(String(seconds));
  expect(Number(afterMs)).toBeGreaterThan((seconds - 1) * 1000);
  expect(Number(afterMs)).toBeLessThanOrEqual(seconds * 1000);
}

describe('generations', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ groups: { team: [{ name: 'coder', targets: ['openai/gpt-5.4', 'ca/qwen3-coder'] }] } });
  });
  afterAll(async () => h.close());
  beforeEach(() => h.reset());

  const openai = (baseURL = h.a, maxRetries = 0) => new OpenAI({ baseURL, apiKey: 'k', maxRetries });
  const anthropic = () => new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });

  it('passthrough: OpenAI durations become retry-after (whole seconds, up) and retry-after-ms', async () => {
    h.mocks.openai.next(h.mocks.openai.error(429, 'Rate limit reached for requests', { headers: openaiLimited('1m30.5s') }));
    const e = await refusal(openai().responses.create({ model: 'openai/gpt-5.4', input: 'hi' }));
    expect(e.status).toBe(429);
    expect(advice(e.headers)).toEqual(['91', '90500']);
  });

  it('the SDK waits that long before its retry', async () => {
    h.mocks.openai.next(h.mocks.openai.error(429, 'Rate limit reached for requests', { headers: openaiLimited('1.2s') }));
    const started = performance.now();
    const answer = await openai(h.a, 1).responses.create({ model: 'openai/gpt-5.4', input: 'hi' });
    expect(answer.status).toBe('completed');
    expect(h.mocks.openai.generations()).toHaveLength(2);
    // without the advice the SDK backs off 0.375–0.5 s
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_150);
  });

  it('passthrough: Anthropic RFC 3339 resets, the exhausted limit counted (on a 529 too)', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(429, 'rate limited', { headers: anthropicLimited(20_000) }));
    const limited = await refusal(anthropic().messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }));
    expect(limited.status).toBe(429);
    expectAbout(limited.headers, 20);
    h.mocks.anthropic.next(h.mocks.anthropic.error(529, 'Overloaded', { headers: anthropicLimited(7_000) }));
    const overloaded = await refusal(anthropic().messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }));
    expect(overloaded.status).toBe(529);
    expectAbout(overloaded.headers, 7);
  });

  it('converted: each dialect to the other, and a bare x-ratelimit-reset in epoch milliseconds', async () => {
    h.mocks.openai.next(h.mocks.openai.error(429, 'Rate limit reached for requests', { headers: openaiLimited('12s') }));
    const toOpenAI = await refusal(anthropic().messages.create({ model: 'openai/gpt-5.4', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }));
    expect([toOpenAI.status, ...advice(toOpenAI.headers)]).toEqual([429, '12', '12000']);

    h.mocks.anthropic.next(h.mocks.anthropic.error(429, 'rate limited', { headers: anthropicLimited(9_000) }));
    const toAnthropic = await refusal(openai().chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }));
    expect(toAnthropic.status).toBe(429);
    expectAbout(toAnthropic.headers, 9);

    h.mocks.openrouter.next(h.mocks.openrouter.error(429, 'Rate limit exceeded', { headers: { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.now() + 15_000) } }));
    const toOpenRouter = await refusal(anthropic().messages.create({ model: 'openrouter/anthropic/claude-sonnet-4.5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }));
    expect(toOpenRouter.status).toBe(429);
    expectAbout(toOpenRouter.headers, 15);
  });

  it("OpenRouter's limits repeated only in its error body (metadata.headers, reset in epoch ms)", async () => {
    const metadata = { headers: { 'X-RateLimit-Limit': '15', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Date.now() + 25_000) }, provider_name: null };
    h.mocks.openrouter.next(openrouterError(429, 'Rate limit exceeded: limited to 15 requests per minute. Please retry shortly.', { metadata }));
    const e = await refusal(openai().chat.completions.create({ model: 'openrouter/qwen/qwen3-coder:free', messages: [{ role: 'user', content: 'hi' }] }));
    expect(e.status).toBe(429);
    expectAbout(e.headers, 25);
  });

  it("OpenRouter's error in a 200 answer: the reset in its body read on the upstream's clock, an hour off ours (passthrough and converted)", async () => {
    const theirs = Date.now() + 3_600_000;
    const limited = () => {
      const metadata = { headers: { 'X-RateLimit-Limit': '15', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(theirs + 25_000) } };
      const error = openrouterError(429, 'Rate limit exceeded: limited to 15 requests per minute.', { metadata, headers: { date: new Date(theirs).toUTCString() } });
      return { ...error, status: 200 };
    };
    h.mocks.openrouter.next(limited());
    const passthrough = await refusal(openai().chat.completions.create({ model: 'openrouter/qwen/qwen3-coder:free', messages: [{ role: 'user', content: 'hi' }] }));
    h.mocks.openrouter.next(limited());
    const converted = await refusal(anthropic().messages.create({ model: 'openrouter/qwen/qwen3-coder:free', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }));
    for (const e of [passthrough, converted]) {
      expect(e.status).toBe(429);
      expect(e.headers.get('x-should-retry')).toBeNull();
      // the Date header counts whole seconds: up to one more, and the time it took to read
      expect(Number(e.headers.get('retry-after'))).toBeGreaterThanOrEqual(25);
      expect(Number(e.headers.get('retry-after'))).toBeLessThanOrEqual(27);
    }
  });

  it("the upstream's own retry-after wins; a 400, or limits none of which is exhausted, get no advice", async () => {
    h.mocks.openai.next(h.mocks.openai.error(429, 'Rate limit reached for requests', { retryAfter: 4, headers: openaiLimited('50s') }));
    const own = await refusal(openai().responses.create({ model: 'openai/gpt-5.4', input: 'hi' }));
    expect(advice(own.headers)).toEqual(['4', null]);

    h.mocks.openai.next(h.mocks.openai.error(400, 'bad', { headers: openaiLimited('50s') }));
    const bad = await refusal(openai().responses.create({ model: 'openai/gpt-5.4', input: 'hi' }));
    expect([bad.status, ...advice(bad.headers)]).toEqual([400, null, null]);

    h.mocks.openai.next(h.mocks.openai.error(429, 'You exceeded your current quota', { code: 'insufficient_quota', type: 'insufficient_quota', headers: { ...openaiLimited('50s'), 'x-ratelimit-remaining-requests': '59' } }));
    const quota = await refusal(openai().responses.create({ model: 'openai/gpt-5.4', input: 'hi' }));
    expect([quota.status, ...advice(quota.headers)]).toEqual([402, null, null]);
  });

  it('a group whose targets all failed: the rate-limited one tells when to come back', async () => {
    h.mocks.openai.next(h.mocks.openai.error(429, 'Rate limit reached for requests', { headers: openaiLimited('30s') }));
    h.mocks.ca.next(h.mocks.ca.error(503, 'unavailable'));
    const e = await refusal(openai(h.groupA('team')).chat.completions.create({ model: 'coder', messages: [{ role: 'user', content: 'hi' }] }));
    expect(e.status).toBe(503);
    expect(advice(e.headers)).toEqual(['30', '30000']);
  });

  it("a group's last target saying x-should-retry: false after one a retry may get past: the SDK retries", async () => {
    h.mocks.openai.next(h.mocks.openai.error(503, 'overloaded'));
    h.mocks.ca.next(h.mocks.ca.error(429, 'slow down', { headers: { 'x-should-retry': 'false' } }));
    const logged = h.logs.length;
    const answer = await openai(h.groupA('team'), 1).chat.completions.create({ model: 'coder', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]!.message.content).toBeTruthy();
    expect(h.logs.length - logged, 'attempts by the SDK').toBe(2);
  });

  it('calls relayed to OpenAI: a stored response, a conversation, a previous_response_id read', async () => {
    const limited = h.mocks.openai.error(429, 'Rate limit reached for requests', { headers: openaiLimited('8s') });
    h.mocks.openai.on('/v1/responses/resp_busy', limited);
    const stored = await refusal(openai().responses.retrieve('resp_busy'));
    expect([stored.status, ...advice(stored.headers)]).toEqual([429, '8', '8000']);
    h.mocks.openai.on('/v1/conversations', limited);
    expect(adviceOf(await post(`${h.a}/conversations`, {}))).toEqual(['8', '8000']);
    h.mocks.openai.on('/v1/responses/resp_busy/input_items', limited);
    const chained = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'x', previous_response_id: 'resp_busy' });
    expect([chained.status, ...adviceOf(chained)]).toEqual([429, '8', '8000']);
  });

  it('a transcription', async () => {
    h.mocks.ca.on('/v1/audio/transcriptions', h.mocks.ca.error(429, 'Rate limit reached for requests', { headers: openaiLimited('3s') }));
    const file = new File([Buffer.alloc(500, 3)], 'a.wav', { type: 'audio/wav' });
    const e = await refusal(openai().audio.transcriptions.create({ model: 'ca/whisper-large-v3', file }));
    expect([e.status, ...advice(e.headers)]).toEqual([429, '3', '3000']);
  });

  it('a token count', async () => {
    h.mocks.anthropic.on('/v1/messages/count_tokens', h.mocks.anthropic.error(429, 'rate limited', { headers: anthropicLimited(6_000) }));
    const e = await refusal(anthropic().messages.countTokens({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }));
    expect(e.status).toBe(429);
    expectAbout(e.headers, 6);
  });
});

describe('a limit that resets in hours: the client is told not to retry, and when it resets', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());
  beforeEach(() => h.reset());

  const perDay = { 'x-ratelimit-limit-tokens': '2000000', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '7h12m0s' };

  it('the openai SDK makes one attempt (maxRetries 2), its error saying when the limit resets', async () => {
    h.mocks.openai.next(h.mocks.openai.error(429, 'Rate limit reached for gpt-5.4 on tokens per day (TPD): Limit 2000000, Used 2000000.', { headers: perDay }));
    const e = (await refusal(new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 2 }).responses.create({ model: 'openai/gpt-5.4', input: 'hi' }))) as ApiError & { message: string; code: string };
    expect(h.mocks.openai.generations()).toHaveLength(1);
    expect([e.status, e.code, e.headers.get('x-should-retry'), ...advice(e.headers)]).toEqual([429, 'upstream_rate_limited', 'false', '25920', '25920000']);
    expect(e.message).toMatch(/the limit resets in 7 h 12 min \(at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\)\.$/);
  });

  it('the anthropic SDK too, converted, for RFC 3339 resets hours ahead', async () => {
    const reset = new Date(Date.now() + 5 * 3_600_000).toISOString();
    h.mocks.openai.next(h.mocks.openai.error(429, 'Rate limit reached for requests per day', { headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '5h0m0s' } }));
    const toOpenAI = (await refusal(new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 2 }).messages.create({ model: 'openai/gpt-5.4', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }))) as ApiError & { message: string };
    expect(h.mocks.openai.generations()).toHaveLength(1);
    expect([toOpenAI.status, toOpenAI.headers.get('x-should-retry')]).toEqual([429, 'false']);
    expect(toOpenAI.message).toContain('the limit resets in 5 h (at ');

    h.mocks.anthropic.next(h.mocks.anthropic.error(429, 'rate limited', { headers: { 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': reset } }));
    const passthrough = await refusal(new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 2 }).messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }));
    expect(h.mocks.anthropic.generations()).toHaveLength(1);
    expect([passthrough.status, passthrough.headers.get('x-should-retry')]).toEqual([429, 'false']);
  });

  it("OpenRouter's free-tier daily limit, only in its error body", async () => {
    const metadata = { headers: { 'X-RateLimit-Limit': '50', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Date.now() + 10 * 3_600_000) }, provider_name: null };
    h.mocks.openrouter.next(openrouterError(429, 'Rate limit exceeded: free-models-per-day.', { metadata }));
    const e = (await refusal(new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 2 }).chat.completions.create({ model: 'openrouter/qwen/qwen3-coder:free', messages: [{ role: 'user', content: 'hi' }] }))) as ApiError & { message: string };
    expect(h.mocks.openrouter.generations()).toHaveLength(1);
    expect([e.status, e.headers.get('x-should-retry')]).toEqual([429, 'false']);
    expect(e.message).toMatch(/free-models-per-day; the limit resets in 10 h \(at /);
  });

  it("an RFC 3339 reset is read on the upstream's clock, an hour off ours", async () => {
    const theirs = Date.now() + 3_600_000;
    const headers = { 'anthropic-ratelimit-input-tokens-remaining': '0', 'anthropic-ratelimit-input-tokens-reset': new Date(theirs + 20_000).toISOString(), date: new Date(theirs).toUTCString() };
    h.mocks.anthropic.next(h.mocks.anthropic.error(429, 'rate limited', { headers }));
    const e = await refusal(new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 }).messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }));
    expect(e.headers.get('x-should-retry')).toBeNull();
    // the Date header counts whole seconds: up to one more, and the time it took to read
    expect(Number(e.headers.get('retry-after'))).toBeGreaterThanOrEqual(20);
    expect(Number(e.headers.get('retry-after'))).toBeLessThanOrEqual(22);
    expect(e.headers.get('date')).not.toBe(headers.date);
  });
});

describe('a group target whose limit resets in hours', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { groupCooldowns: true }, groups: { team: [{ name: 'coder', targets: ['openai/gpt-5.4', 'ca/qwen3-coder'] }] } });
  });
  afterAll(async () => h.close());

  it('the group answers from the next target, and asks the limited one last until it resets', async () => {
    h.mocks.openai.next(h.mocks.openai.error(429, 'Rate limit reached on tokens per day', { headers: { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '7h12m0s' } }));
    const openai = new OpenAI({ baseURL: h.groupA('team'), apiKey: 'k', maxRetries: 0 });
    const ask = () => openai.chat.completions.create({ model: 'coder', messages: [{ role: 'user', content: 'hi' }] });
    await ask();
    expect(h.logs.at(-1)!.attempts.map((a) => [a.target, a.status])).toEqual([
      ['openai/gpt-5.4', 429],
      ['ca/qwen3-coder', 200],
    ]);
    await ask();
    const skipped = h.logs.at(-1)!.attempts[0]!;
    expect(skipped).toMatchObject({ target: 'openai/gpt-5.4', errorCode: 'cooling_down' });
    const seconds = Number(/for (\d+) s more/.exec(skipped.skipped ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(25_900);
    expect(seconds).toBeLessThanOrEqual(25_920);
    expect(h.mocks.openai.generations()).toHaveLength(1);
  });
});

describe('a group target rate limited with reset headers only', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { groupCooldowns: true }, groups: { team: [{ name: 'claude', targets: ['anthropic/claude-sonnet-4-5', 'ca/qwen3-coder'] }] } });
  });
  afterAll(async () => h.close());

  it('cools down for the wait they imply, not the default 15 s', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(429, 'rate limited', { headers: anthropicLimited(90_000) }));
    const ask = () => post(`${h.groupB('team')}/v1/messages`, { model: 'claude', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const skipped = h.logs.at(-1)!.attempts[0]!;
    expect(skipped).toMatchObject({ target: 'anthropic/claude-sonnet-4-5', errorCode: 'cooling_down' });
    const seconds = Number(/for (\d+) s more/.exec(skipped.skipped ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(85);
    expect(seconds).toBeLessThanOrEqual(90);
  });
});

describe('GET …/models/{id} of a provider whose list is rate limited', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('answers with the wait its reset headers imply, and later with what is left of it', async () => {
    h.mocks.openrouter.always('/api/v1/models', h.mocks.openrouter.error(429, 'Rate limit exceeded', { headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.round(Date.now() / 1000) + 40) } }));
    const openai = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const first = await refusal(openai.models.retrieve('openrouter/anthropic/claude-sonnet-4.5'));
    expect(first.status).toBe(429);
    const [after, afterMs] = advice(first.headers);
    expect(Number(after)).toBeGreaterThanOrEqual(39);
    expect(Number(after)).toBeLessThanOrEqual(41);
    expect(Number(afterMs)).toBeGreaterThan(38_000);
    // the failure is kept a while: the wait told is what is left of it
    await new Promise((r) => setTimeout(r, 1_100));
    const again = await refusal(new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 }).models.retrieve('openrouter/anthropic/claude-sonnet-4.5'));
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after-ms'))).toBeLessThanOrEqual(Number(afterMs) - 1_000);
  });

  it("the provider's own retry-after is kept too", async () => {
    h.mocks.anthropic.always('/v1/models', h.mocks.anthropic.error(429, 'rate limited', { retryAfter: 25 }));
    const e = await refusal(new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).models.retrieve('anthropic/claude-sonnet-4-5'));
    expect(e.status).toBe(429);
    expect(Number(e.headers.get('retry-after'))).toBeGreaterThanOrEqual(24);
    expect(Number(e.headers.get('retry-after'))).toBeLessThanOrEqual(25);
  });
});

describe('GET …/models/{id} of a provider whose list is rate limited, its limits in the error body', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it("read from OpenRouter's error body (metadata.headers) when only it has them", async () => {
    const metadata = (resetIn: number) => ({ headers: { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Date.now() + resetIn) } });
    h.mocks.openrouter.always('/api/v1/models', openrouterError(429, 'Rate limit exceeded', { metadata: metadata(30_000) }));
    const soon = await refusal(new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).models.retrieve('openrouter/qwen/qwen3-coder:free'));
    expect(soon.status).toBe(429);
    expect(Number(soon.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(Number(soon.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect(soon.headers.get('x-should-retry')).toBeNull();
  });

});

describe('GET …/models/{id} of a provider whose list hit a daily limit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('says not to retry, and when the limit resets', async () => {
    const metadata = { headers: { 'X-RateLimit-Limit': '50', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Date.now() + 3 * 3_600_000) } };
    h.mocks.openrouter.always('/api/v1/models', openrouterError(429, 'Rate limit exceeded: free-models-per-day', { metadata }));
    const e = (await refusal(new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 2 }).models.retrieve('openrouter/qwen/qwen3-coder:free'))) as ApiError & { message: string };
    expect([e.status, e.headers.get('x-should-retry')]).toEqual([429, 'false']);
    expect(e.message).toMatch(/the provider answered 429; the limit resets in 3 h \(at /);
  });
});
