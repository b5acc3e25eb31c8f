import { describe, expect, it } from 'vitest';
import { answerWaitMs, bodyLimitHeaders, durationMs, epochMs, errorBodyLimitHeaders, LONGEST_RESET_MS, resetWaitMs, rfc3339Ms, streamLimitHeaders, upstreamClock, waitAdvice } from '../../src/providers/retry-wait.js';

const NOW = Date.UTC(2026, 10, 29, 3, 0, 0);
const iso = (msFromNow: number) => new Date(NOW + msFromNow).toISOString();

describe('durationMs (Go durations, as OpenAI sends them)', () => {
  it('reads single, fractional and compound durations', () => {
    expect(durationMs('1s')).toBe(1000);
    expect(durationMs('20ms')).toBe(20);
    expect(durationMs('6m0s')).toBe(360_000);
    expect(durationMs('1m30.5s')).toBe(90_500);
    expect(durationMs('2h0m0s')).toBe(7_200_000);
    expect(durationMs('1.5h')).toBe(5_400_000);
    expect(durationMs('.5s')).toBe(500);
    expect(durationMs('1500us')).toBe(1.5);
    expect(durationMs('1500µs')).toBe(1.5);
    expect(durationMs('2000000ns')).toBe(2);
    expect(durationMs(' 7s ')).toBe(7000);
    expect(durationMs('0')).toBe(0);
    expect(durationMs('+3s')).toBe(3000);
  });

  it('a negative duration is a limit that has reset: 0', () => {
    expect(durationMs('-1s')).toBe(0);
    expect(durationMs('-1m30s')).toBe(0);
  });

  it('anything else is no duration', () => {
    for (const bad of ['', 's', '1', '10', '1x', '1s garbage', 'ms', '1.2.3s', '1 s', 'NaN', '1e3s', '-', '1d', 'abc', '1S']) {
      expect(durationMs(bad), bad).toBeUndefined();
    }
  });
});

describe('rfc3339Ms (RFC 3339 times, as Anthropic sends them)', () => {
  it('reads Z and offsets, with and without a fraction', () => {
    expect(rfc3339Ms('2026-11-29T03:00:30Z')).toBe(NOW + 30_000);
    expect(rfc3339Ms('2026-11-29T03:00:30.250Z')).toBe(NOW + 30_250);
    expect(rfc3339Ms('2026-11-29T03:00:30.123456789Z')).toBeCloseTo(NOW + 30_123.456789, 3);
    expect(rfc3339Ms('2026-11-29T05:00:30+02:00')).toBe(NOW + 30_000);
    expect(rfc3339Ms('2026-11-28T22:30:30-04:30')).toBe(NOW + 30_000);
    expect(rfc3339Ms('2026-11-29t03:00:30z')).toBe(NOW + 30_000);
    expect(rfc3339Ms('2026-11-29 03:00:30Z')).toBe(NOW + 30_000);
  });

  it('anything else is no time', () => {
    for (const bad of ['', '1', '1764385230', '2026-11-29', '2026-11-29T03:00:30', 'Sun, 29 Nov 2026 03:00:30 GMT', '2026-13-01T00:00:00Z', '2026-11-29T25:00:00Z', '2026-11-29T03:00:30+0200', 'garbage']) {
      expect(rfc3339Ms(bad), bad).toBeUndefined();
    }
  });
});

describe('epochMs (a bare x-ratelimit-reset)', () => {
  it('reads epoch milliseconds and epoch seconds near now', () => {
    expect(epochMs(String(NOW + 60_000), NOW)).toBe(NOW + 60_000);
    expect(epochMs(String((NOW + 60_000) / 1000), NOW)).toBe(NOW + 60_000);
    expect(epochMs(String(NOW - 5_000), NOW)).toBe(NOW - 5_000);
  });

  it('a number that could be a count of seconds or milliseconds, or an epoch far off, is not read', () => {
    for (const ambiguous of ['30', '60000', '3600', '86400000', String(NOW + 3 * 86_400_000), String(Math.round(NOW / 1000) - 3 * 86_400), '-5', '1e12', 'soon']) {
      expect(epochMs(ambiguous, NOW), ambiguous).toBeUndefined();
    }
  });
});

describe('resetWaitMs', () => {
  it('OpenAI: the latest reset of the exhausted limits', () => {
    const headers = {
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '1m30.5s',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '20s',
      'x-ratelimit-remaining-tokens_usage_based': '500',
      'x-ratelimit-reset-tokens_usage_based': '4m0s',
    };
    expect(resetWaitMs(headers, 429, NOW)).toBe(90_500);
  });

  it('Anthropic: only the exhausted limit counts, whichever kind', () => {
    const headers = {
      'anthropic-ratelimit-requests-remaining': '12',
      'anthropic-ratelimit-requests-reset': iso(50_000),
      'anthropic-ratelimit-input-tokens-remaining': '0',
      'anthropic-ratelimit-input-tokens-reset': iso(12_300),
      'anthropic-ratelimit-output-tokens-remaining': '4000',
      'anthropic-ratelimit-output-tokens-reset': iso(40_000),
      'anthropic-ratelimit-tokens-remaining': '0',
      'anthropic-ratelimit-tokens-reset': iso(8_000),
    };
    expect(resetWaitMs(headers, 429, NOW)).toBe(12_300);
    // a 529 with an exhausted limit says the same
    expect(resetWaitMs(headers, 529, NOW)).toBe(12_300);
  });

  it('remaining headers with none exhausted: which limit refused is unknown, so nothing', () => {
    const headers = { 'x-ratelimit-remaining-requests': '59', 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-remaining-tokens': '2000', 'x-ratelimit-reset-tokens': '6m0s' };
    expect(resetWaitMs(headers, 429, NOW)).toBeUndefined();
  });

  it('reset headers alone: on a 429 the latest reset; on a 503 or 529 nothing', () => {
    const headers = { 'x-ratelimit-reset-requests': '2s', 'x-ratelimit-reset-tokens': '45s' };
    expect(resetWaitMs(headers, 429, NOW)).toBe(45_000);
    expect(resetWaitMs(headers, 503, NOW)).toBeUndefined();
    expect(resetWaitMs(headers, 529, NOW)).toBeUndefined();
  });

  it('a bare x-ratelimit-reset in epoch milliseconds or seconds', () => {
    expect(resetWaitMs({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW + 42_000) }, 429, NOW)).toBe(42_000);
    expect(resetWaitMs({ 'x-ratelimit-reset': String(Math.round(NOW / 1000) + 42) }, 429, NOW)).toBe(42_000);
    // a count it might be (seconds? milliseconds?) gives nothing
    expect(resetWaitMs({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '42' }, 429, NOW)).toBeUndefined();
  });

  it('rounds up to whole milliseconds', () => {
    expect(resetWaitMs({ 'x-ratelimit-reset-requests': '1500us' }, 429, NOW)).toBe(2);
  });

  it('a past reset, a zero or negative duration: no advice', () => {
    expect(resetWaitMs({ 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': iso(-5_000) }, 429, NOW)).toBeUndefined();
    expect(resetWaitMs({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '0s' }, 429, NOW)).toBeUndefined();
    expect(resetWaitMs({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '-3s' }, 429, NOW)).toBeUndefined();
  });

  it('garbage in the reset headers is ignored, the readable ones still count', () => {
    expect(resetWaitMs({ 'x-ratelimit-reset-requests': 'soon', 'anthropic-ratelimit-tokens-reset': 'tomorrow' }, 429, NOW)).toBeUndefined();
    expect(resetWaitMs({ 'x-ratelimit-reset-requests': 'soon', 'x-ratelimit-reset-tokens': '3s' }, 429, NOW)).toBe(3_000);
    // Claude's subscription headers (epoch seconds) are not RFC 3339: not read
    expect(resetWaitMs({ 'anthropic-ratelimit-unified-reset': String(Math.round(NOW / 1000) + 60), 'anthropic-ratelimit-unified-remaining': '0' }, 429, NOW)).toBeUndefined();
    expect(resetWaitMs({}, 429, NOW)).toBeUndefined();
    expect(resetWaitMs({ 'content-type': 'application/json', 'x-ratelimit-limit-requests': '60' }, 429, NOW)).toBeUndefined();
  });

  it("a per-day limit's hours are kept (the caller decides what a wait that long means); absurd ones end at a month", () => {
    expect(resetWaitMs({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '7h12m0s' }, 429, NOW)).toBe(25_920_000);
    expect(resetWaitMs({ 'x-ratelimit-reset-tokens': `${'9'.repeat(400)}h` }, 429, NOW)).toBe(LONGEST_RESET_MS);
    expect(resetWaitMs({ 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': '2099-01-01T00:00:00Z' }, 429, NOW)).toBe(LONGEST_RESET_MS);
  });

  it('a header sent twice: the first value', () => {
    expect(resetWaitMs({ 'x-ratelimit-remaining-requests': ['0', '5'], 'x-ratelimit-reset-requests': ['4s', '9s'] }, 429, NOW)).toBe(4_000);
  });
});

describe('answerWaitMs', () => {
  const reset = { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '8s' };

  it("the upstream's own advice first, then its reset headers", () => {
    expect(answerWaitMs({ ...reset, 'retry-after': '3' }, 429, NOW)).toBe(3_000);
    expect(answerWaitMs({ ...reset, 'retry-after-ms': '1500', 'retry-after': '3' }, 429, NOW)).toBe(1_500);
    expect(answerWaitMs({ ...reset, 'retry-after': new Date(NOW + 20_000).toUTCString() }, 429, NOW)).toBe(20_000);
    expect(answerWaitMs(reset, 429, NOW)).toBe(8_000);
  });

  it("absolute times on the upstream's clock, as its Date header gives it", () => {
    const ahead = new Date(NOW + 600_000).toUTCString();
    const limited = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW + 600_000 + 20_000), date: ahead };
    expect(answerWaitMs(limited, 429, NOW)).toBe(20_000);
    expect(answerWaitMs({ 'retry-after': new Date(NOW + 600_000 + 30_000).toUTCString(), date: ahead }, 503, NOW)).toBe(30_000);
    // a Go duration is relative: no clock in it
    expect(answerWaitMs({ ...reset, date: ahead }, 429, NOW)).toBe(8_000);
  });

  it('nothing for a status not to retry', () => {
    expect(answerWaitMs({ ...reset, 'retry-after': '3' }, 400, NOW)).toBeUndefined();
    expect(answerWaitMs(reset, 404, NOW)).toBeUndefined();
  });
});

describe('waitAdvice', () => {
  it('retry-after in whole seconds rounded up, retry-after-ms in whole milliseconds', () => {
    expect(waitAdvice(90_500)).toEqual({ retryAfter: '91', retryAfterMs: '90500' });
    expect(waitAdvice(1)).toEqual({ retryAfter: '1', retryAfterMs: '1' });
    expect(waitAdvice(2_000)).toEqual({ retryAfter: '2', retryAfterMs: '2000' });
    expect(waitAdvice(1.5)).toEqual({ retryAfter: '1', retryAfterMs: '2' });
  });
});

describe('bodyLimitHeaders (OpenRouter repeats its limits in error.metadata.headers)', () => {
  it('keeps the x-ratelimit-* string values, names lower-cased', () => {
    expect(bodyLimitHeaders({ 'X-RateLimit-Limit': '15', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1789138080000', 'Set-Cookie': 'a=b', 'X-RateLimit-Odd': 5 })).toEqual({
      'x-ratelimit-limit': '15',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1789138080000',
    });
  });

  it('nothing else is headers', () => {
    for (const v of [undefined, null, 'x', ['X-RateLimit-Reset'], {}, { other: '1' }]) expect(bodyLimitHeaders(v)).toBeUndefined();
  });
});

describe('upstreamClock', () => {
  it("the upstream's Date when it is further from ours than the header can tell, else ours", () => {
    expect(upstreamClock(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(NOW + 90_000);
    expect(upstreamClock(new Date(NOW - 3_600_000).toUTCString(), NOW)).toBe(NOW - 3_600_000);
    // whole seconds, and the answer's time in transit: that is not a clock apart
    expect(upstreamClock(new Date(NOW - 1_500).toUTCString(), NOW)).toBe(NOW);
    expect(upstreamClock(new Date(NOW + 1_000).toUTCString(), NOW)).toBe(NOW);
    expect(upstreamClock(undefined, NOW)).toBe(NOW);
    expect(upstreamClock('yesterday', NOW)).toBe(NOW);
  });
});

describe('errorBodyLimitHeaders', () => {
  it("an error body's error.metadata.headers (OpenRouter's), else none", () => {
    expect(errorBodyLimitHeaders({ error: { code: 429, message: 'x', metadata: { headers: { 'X-RateLimit-Reset': '1789138080000' } } } })).toEqual({ 'x-ratelimit-reset': '1789138080000' });
    for (const v of [undefined, 'x', [], { error: 'x' }, { error: { metadata: null } }, { error: { metadata: { headers: [] } } }]) expect(errorBodyLimitHeaders(v)).toBeUndefined();
  });
});

describe('streamLimitHeaders: a stream’s 200 headers, for a rate limit its error event reports', () => {
  const answer = {
    'content-type': 'text/event-stream',
    'anthropic-ratelimit-requests-remaining': '49',
    'anthropic-ratelimit-requests-reset': '2026-11-29T10:00:01Z',
    'anthropic-ratelimit-input-tokens-remaining': '2000',
    'anthropic-ratelimit-input-tokens-reset': '2026-11-29T10:00:20Z',
    'anthropic-ratelimit-output-tokens-reset': '2026-11-29T10:00:03Z',
  };

  it('the reset of the limit the message names, without the stale remaining counts', () => {
    expect(streamLimitHeaders(answer, 'would exceed the rate limit for your organization of 30,000 input tokens per minute.')).toEqual({ 'anthropic-ratelimit-input-tokens-reset': '2026-11-29T10:00:20Z' });
    expect(streamLimitHeaders(answer, 'Number of requests has exceeded your per-minute rate limit')).toEqual({ 'anthropic-ratelimit-requests-reset': '2026-11-29T10:00:01Z' });
  });

  it('every reset when the message names no limit (a 429 then waits for the latest), none without reset headers', () => {
    const all = streamLimitHeaders(answer, 'Rate limited');
    expect(Object.keys(all ?? {}).sort()).toEqual(['anthropic-ratelimit-input-tokens-reset', 'anthropic-ratelimit-output-tokens-reset', 'anthropic-ratelimit-requests-reset']);
    expect(resetWaitMs(all!, 429, Date.parse('2026-11-29T10:00:00Z'))).toBe(20_000);
    expect(streamLimitHeaders({ 'content-type': 'text/event-stream' }, 'input tokens')).toBeUndefined();
  });
});
