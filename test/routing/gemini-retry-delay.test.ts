/**
 * Gemini states the wait of its rate limit only in the error body — `details[]` holds a
 * `google.rpc.RetryInfo` with `retryDelay: "37s"`, and no Retry-After header comes — on its
 * OpenAI-compatible endpoint too (the error wrapped in a JSON array). That wait reaches the client
 * as retry-after (the official SDKs wait for it), in a stream's message as OpenAI words it (Codex
 * reads "Please try again in 37s."), and cools a group target until then. A used-up quota (per-day)
 * stays a billing failure, not to be retried, back at midnight Pacific time (when Google resets
 * daily quotas): its target cools until then, and the answer says when. Real SDK clients, a mock Gemini speaking its error body.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { geminiError, geminiRetryInfo, type Reply } from '../fixtures/mock-upstream/index.js';
import type { StreamSpec } from '../fixtures/mock-upstream/turn.js';
import { useHarness } from './harness.js';

const t = useHarness();
const openai = (baseURL = t.h.a, maxRetries = 0) => new OpenAI({ baseURL, apiKey: 'k', maxRetries });

type ApiError = InstanceType<typeof OpenAI.APIError>;
const refusal = (call: Promise<unknown>): Promise<ApiError> =>
  call.then(
    () => Promise.reject(new Error('the call was answered')),
    (e: unknown) => e as ApiError,
  );
const advice = (e: ApiError) => ({ status: e.status, retryAfter: e.headers?.get('retry-after'), retryAfterMs: e.headers?.get('retry-after-ms'), shouldRetry: e.headers?.get('x-should-retry') ?? null });

const EXHAUSTED = 'You exceeded your current quota, please check your plan and billing details. Please retry in 36.52s.';
/** Gemini's 429 details: the quota went past, and the wait (as the compat endpoint sends them). */
const limited = (quotaId: string, waitMs?: number) => [
  { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId, quotaDimensions: { location: 'global', model: 'gemini-2.5-flash' } }] },
  ...(waitMs === undefined ? [] : [geminiRetryInfo(waitMs)]),
];
const PER_MINUTE = 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier';
const PER_DAY = 'GenerateRequestsPerDayPerProjectPerModel-FreeTier';
/** A fixed clock: 12:00 UTC on 10 March 2026, 05:00 in California (summer time since 8 March). */
const NOON_UTC = '2026-03-10T12:00:00Z';
/** How Codex reads the wait from a failed response's message (codex-rs `rate_limit_regex`). */
const CODEX_WAIT = /Please try again in (\d+(?:\.\d+)?)(s|ms)/;

describe('a Gemini 429 before the stream', () => {
  it('Chat client (passthrough): the stated wait as retry-after and retry-after-ms', async () => {
    t.h.mocks.gemini.next(geminiError(429, EXHAUSTED, { details: limited(PER_MINUTE, 37_000) }));
    const e = await refusal(openai().chat.completions.create({ model: 'gemini/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }));
    expect(advice(e)).toEqual({ status: 429, retryAfter: '37', retryAfterMs: '37000', shouldRetry: null });
    expect(e.code).toBe('upstream_rate_limited');
  });

  it('Responses client (converted), streaming: the same advice, as the HTTP 429 nothing went out before', async () => {
    t.h.mocks.gemini.next(geminiError(429, EXHAUSTED, { details: limited(PER_MINUTE, 12_000) }));
    const e = await refusal(openai().responses.create({ model: 'gemini/gemini-2.5-flash', input: 'hi', stream: true }));
    expect(advice(e)).toEqual({ status: 429, retryAfter: '12', retryAfterMs: '12000', shouldRetry: null });
  });

  it('a wait past the longest to sit out: not to be retried, and when it ends', async () => {
    t.h.mocks.gemini.next(geminiError(429, EXHAUSTED, { details: limited(PER_MINUTE, 2 * 3_600_000) }));
    const e = await refusal(openai().chat.completions.create({ model: 'gemini/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }));
    expect(advice(e)).toEqual({ status: 429, retryAfter: '7200', retryAfterMs: '7200000', shouldRetry: 'false' });
    expect(e.message).toMatch(/the limit resets in 2 h \(at .*UTC\)\.$/);
  });

  it('a per-day quota stays a billing failure (402, not to be retried), back at midnight Pacific, not after its RetryInfo’s seconds', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(NOON_UTC)); // 05:00 PDT: midnight Pacific is 19 h away, at 07:00 UTC
      t.h.mocks.gemini.next(geminiError(429, EXHAUSTED, { details: limited(PER_DAY, 37_000) }));
      const e = await refusal(openai().chat.completions.create({ model: 'gemini/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }));
      expect(advice(e)).toEqual({ status: 402, retryAfter: String(19 * 3600), retryAfterMs: String(19 * 3_600_000), shouldRetry: 'false' });
      expect(e.message).toMatch(/; the limit resets in 19 h \(at 2026-03-11 07:00 UTC\)\.$/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a Gemini rate limit inside the stream, its RetryInfo in the error chunk', () => {
  const RATE_LIMIT: StreamSpec = { chunk: 3, errorAfter: 5, errorKind: 'rate_limit', rateLimitResetInMs: 37_000 };

  it('Chat client (passthrough): rate_limit_exceeded, the wait in the message', async () => {
    t.h.mocks.gemini.next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const stream = await openai().chat.completions.create({ model: 'gemini/gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const e = await refusal((async () => {
      for await (const _ of stream);
    })());
    expect({ type: e.type, code: e.code, message: e.message }).toEqual({
      type: 'rate_limit_exceeded',
      code: 'upstream_rate_limited',
      message: 'gemini: Resource has been exhausted (e.g. check quota). Please try again in 37s.',
    });
  });

  it('Responses client (converted): response.failed rate_limit_exceeded with a wait Codex reads', async () => {
    t.h.mocks.gemini.next({ kind: 'turn', turn: { text: 'will be cut short', stream: RATE_LIMIT } });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const ev of await openai().responses.create({ model: 'gemini/gemini-2.5-flash', stream: true, input: 'hi' })) events.push(ev);
    const last = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(last.type).toBe('response.failed');
    expect(last.response.error?.code).toBe('rate_limit_exceeded');
    expect(CODEX_WAIT.exec(last.response.error?.message ?? '')?.slice(1)).toEqual(['37', 's']);
  });
});

describe('a used-up per-day Gemini quota inside the stream', () => {
  /** Some text, then the quota's error chunk: a per-day QuotaFailure beside a RetryInfo of seconds. */
  const cutByDailyQuota = (): Reply => ({
    kind: 'sse',
    events: [
      { data: { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gemini-2.5-flash', choices: [{ index: 0, delta: { role: 'assistant', content: 'will be cut short' }, finish_reason: null }] } },
      { data: { error: { code: 429, message: EXHAUSTED, status: 'RESOURCE_EXHAUSTED', details: limited(PER_DAY, 37_000) } } },
    ],
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOON_UTC)); // 05:00 PDT: midnight Pacific is 19 h away, at 07:00 UTC
  });
  afterEach(() => vi.useRealTimers());

  it('Responses client (converted): response.failed says the limit resets at midnight Pacific, not after its RetryInfo’s seconds', async () => {
    t.h.mocks.gemini.next(cutByDailyQuota());
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const ev of await openai().responses.create({ model: 'gemini/gemini-2.5-flash', stream: true, input: 'hi' })) events.push(ev);
    const last = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(last.type).toBe('response.failed');
    expect(last.response.error?.message).toMatch(/; the limit resets in 19 h \(at 2026-03-11 07:00 UTC\)\.$/);
    expect(CODEX_WAIT.test(last.response.error?.message ?? '')).toBe(false);
  });

  it('Chat client (passthrough): the error says the same', async () => {
    t.h.mocks.gemini.next(cutByDailyQuota());
    const stream = await openai().chat.completions.create({ model: 'gemini/gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const e = await refusal((async () => {
      for await (const _ of stream);
    })());
    expect(e.message).toMatch(/; the limit resets in 19 h \(at 2026-03-11 07:00 UTC\)\.$/);
  });
});

describe.each([
  ['a rate limit: the stated wait, not the default 15 s', limited(PER_MINUTE, 37_000), 36, 37],
  ['a used-up per-day quota, whatever its RetryInfo says: until midnight Pacific', limited(PER_DAY, 37_000), 19 * 3600 - 1, 19 * 3600],
])('a group whose Gemini target meets %s', (_, details, least, most) => {
  const g = useHarness({ settings: { groupCooldowns: true }, groups: { team: [{ name: 'flash', targets: ['gemini/gemini-2.5-flash', 'ca/qwen3-coder'] }] } });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(NOON_UTC));
  });
  afterEach(() => vi.useRealTimers());

  it('is asked after the next target while it cools', async () => {
    g.h.mocks.gemini.next(geminiError(429, EXHAUSTED, { details }));
    const ask = () => openai(g.h.groupA('team')).chat.completions.create({ model: 'flash', messages: [{ role: 'user', content: 'hi' }] });
    await ask();
    await ask();
    const skipped = g.h.logs.at(-1)!.attempts[0]!;
    expect(skipped).toMatchObject({ target: 'gemini/gemini-2.5-flash', errorCode: 'cooling_down' });
    const seconds = Number(/for (\d+) s more/.exec(skipped.skipped ?? '')?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(least);
    expect(seconds).toBeLessThanOrEqual(most);
  });
});
