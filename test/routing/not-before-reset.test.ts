/** failureOfAnswer's decision: a wait to sit out becomes retry advice, a limit that resets later says not to retry. */
import { describe, expect, it } from 'vitest';
import { failureOfAnswer, parseErrorBody, retryAdviceHeaders } from '../../src/routing/upstream-errors.js';

const body = (message: string) => Buffer.from(JSON.stringify({ error: { message, type: 'tokens', code: 'rate_limit_exceeded' } }));
const answer = (status: number, headers: Record<string, string>, message = 'Rate limit reached for gpt-4o on tokens per day (TPD). Please try again in 7h12m0s.') => {
  const b = body(message);
  return failureOfAnswer('openai', status, { 'content-type': 'application/json', ...headers }, b, parseErrorBody(b), undefined);
};
const perDay = { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '7h12m0s' };

describe('a limit that resets beyond the longest wait to sit out', () => {
  it('says not to retry, when it resets, and keeps the rate-limit code', () => {
    const f = answer(429, perDay);
    expect(f).toMatchObject({ status: 429, code: 'upstream_rate_limited', shouldRetry: 'false', retryAfter: '25920', retryAfterMs: '25920000' });
    expect(f.message).toMatch(/^openai: Rate limit reached .* Please try again in 7h12m0s; the limit resets in 7 h 12 min \(at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\)\.$/);
    expect(f.resetsAt! - Date.now()).toBeGreaterThan(25_919_000);
    expect(retryAdviceHeaders(f)['x-should-retry']).toBe('false');
  });

  it("the upstream's own retry-after beyond it counts the same, another status in other words", () => {
    const own = answer(429, { 'retry-after': '3600' });
    expect([own.shouldRetry, own.retryAfter]).toEqual(['false', '3600']);
    const maintenance = answer(503, { 'retry-after': '7200' }, 'down for maintenance');
    expect(maintenance.shouldRetry).toBe('false');
    expect(maintenance.message).toMatch(/^openai: down for maintenance; the provider asks not to retry for 2 h \(until /);
  });

  it('a wait within it is advice to wait, as before', () => {
    const f = answer(429, { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '4m59s' });
    expect(f).toMatchObject({ retryAfter: '299', retryAfterMs: '299000' });
    expect(f.shouldRetry).toBeUndefined();
    expect(f.resetsAt).toBeUndefined();
    expect(answer(429, { 'retry-after': '300' }).shouldRetry).toBeUndefined();
  });

  it('not for a status a client does not retry, nor a prompt too long', () => {
    expect(answer(400, perDay).shouldRetry).toBeUndefined();
    expect(answer(429, perDay, "This model's maximum context length is 128000 tokens").shouldRetry).toBeUndefined();
  });

  it("absolute resets are read on the upstream's clock (its Date header), not ours", () => {
    const ahead = Date.now() + 3_600_000;
    const anthropic = {
      'anthropic-ratelimit-input-tokens-remaining': '0',
      'anthropic-ratelimit-input-tokens-reset': new Date(ahead + 30_000).toISOString(),
      date: new Date(ahead).toUTCString(),
    };
    const f = answer(429, anthropic);
    expect(f.shouldRetry).toBeUndefined();
    expect(Number(f.retryAfterMs)).toBeGreaterThan(29_000);
    // the Date header counts whole seconds
    expect(Number(f.retryAfterMs)).toBeLessThanOrEqual(32_000);
    // an upstream whose clock is behind ours: its reset an hour "ago" by ours is still ahead
    const behind = Date.now() - 3_600_000;
    const late = answer(429, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(behind + 8 * 3_600_000), date: new Date(behind).toUTCString() });
    expect(late.shouldRetry).toBe('false');
    expect(Math.round((late.resetsAt! - Date.now()) / 3_600_000)).toBe(8);
  });
});
