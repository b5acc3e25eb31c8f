import { describe, expect, it } from 'vitest';
import { allTargetsFailed } from '../../src/routing/all-failed.js';
import type { UpstreamFailure } from '../../src/routing/upstream-errors.js';

const failure = (status: number, code: string, extra: Partial<UpstreamFailure> = {}): UpstreamFailure => ({ status, code, message: `p: ${code}`, upstreamStatus: status, ...extra });

describe('allTargetsFailed', () => {
  it('one target: its failure as it was', () => {
    const only = failure(429, 'upstream_rate_limited', { retryAfter: '3' });
    expect(allTargetsFailed([{ label: 'a/m', failure: only }])).toBe(only);
  });

  it("the last failure's status and code, the others named, the soonest numeric retry advice of any", () => {
    const out = allTargetsFailed([
      { label: 'a/m', failure: failure(429, 'upstream_rate_limited', { retryAfter: '30', retryAfterMs: '30000' }) },
      { label: 'b/m', failure: failure(503, 'upstream_overloaded', { retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT' }) },
      { label: 'c/m', failure: failure(429, 'upstream_rate_limited', { retryAfter: '9' }) },
      { label: 'd/m', failure: failure(502, 'upstream_unreachable') },
    ]);
    expect(out).toMatchObject({ status: 502, code: 'upstream_unreachable', retryAfter: '9' });
    expect(out.retryAfterMs, "another target's longer retry-after-ms, which the SDKs would read first").toBeUndefined();
    expect(out.message).toBe('p: upstream_unreachable (tried before it: a/m 429 upstream_rate_limited, b/m 503 upstream_overloaded, c/m 429 upstream_rate_limited)');
  });

  it("one target's advice, retry-after and retry-after-ms together: the soonest wait, read from either", () => {
    const out = allTargetsFailed([
      { label: 'a/m', failure: failure(429, 'upstream_rate_limited', { retryAfter: '9' }) },
      { label: 'b/m', failure: failure(429, 'upstream_rate_limited', { retryAfter: '5', retryAfterMs: '4200' }) },
      { label: 'c/m', failure: failure(502, 'upstream_unreachable') },
    ]);
    expect([out.retryAfter, out.retryAfterMs]).toEqual(['5', '4200']);
    // the last target's own advice is not mixed with an earlier one's
    const own = allTargetsFailed([
      { label: 'a/m', failure: failure(429, 'x', { retryAfter: '2', retryAfterMs: '1500' }) },
      { label: 'b/m', failure: failure(503, 'y', { retryAfter: '30' }) },
    ]);
    expect([own.retryAfter, own.retryAfterMs]).toEqual(['30', undefined]);
  });

  it("keeps the last target's own advice; a date only when no number was given", () => {
    expect(allTargetsFailed([{ label: 'a/m', failure: failure(429, 'x', { retryAfter: '1' }) }, { label: 'b/m', failure: failure(429, 'y', { retryAfter: '60' }) }]).retryAfter).toBe('60');
    const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
    expect(allTargetsFailed([{ label: 'a/m', failure: failure(503, 'x', { retryAfter: date }) }, { label: 'b/m', failure: failure(502, 'y') }]).retryAfter).toBe(date);
  });

  describe('a target whose limit resets in hours (it says not to retry)', () => {
    const perDay = (extra: Partial<UpstreamFailure> = {}) =>
      failure(429, 'upstream_rate_limited', { shouldRetry: 'false', retryAfter: '25920', retryAfterMs: '25920000', resetsAt: Date.now() + 25_920_000, ...extra });

    it('last, after one a retry may get past: the group is worth retrying, with the advice of the others', () => {
      const out = allTargetsFailed([
        { label: 'a/m', failure: failure(429, 'upstream_rate_limited', { retryAfter: '20' }) },
        { label: 'b/m', failure: perDay() },
      ]);
      expect(out).toMatchObject({ status: 429, code: 'upstream_rate_limited', retryAfter: '20' });
      expect([out.shouldRetry, out.retryAfterMs, out.resetsAt]).toEqual([undefined, undefined, undefined]);
      const unreachable = allTargetsFailed([{ label: 'a/m', failure: failure(502, 'upstream_unreachable') }, { label: 'b/m', failure: perDay() }]);
      expect([unreachable.shouldRetry, unreachable.retryAfter]).toEqual([undefined, undefined]);
    });

    it('before the last: its hours are no wait for the group', () => {
      const out = allTargetsFailed([{ label: 'a/m', failure: perDay() }, { label: 'b/m', failure: failure(503, 'upstream_overloaded') }]);
      expect([out.shouldRetry, out.retryAfter, out.retryAfterMs]).toEqual([undefined, undefined, undefined]);
    });

    it('last, after failures no retry gets past (a 400): not to retry, with its reset', () => {
      const out = allTargetsFailed([{ label: 'a/m', failure: failure(400, 'upstream_bad_request') }, { label: 'b/m', failure: perDay() }]);
      expect(out).toMatchObject({ shouldRetry: 'false', retryAfter: '25920', retryAfterMs: '25920000' });
    });

    it('every target so: not to retry, with the last one\'s reset', () => {
      const out = allTargetsFailed([{ label: 'a/m', failure: perDay({ retryAfter: '3600', retryAfterMs: '3600000' }) }, { label: 'b/m', failure: perDay() }]);
      expect(out).toMatchObject({ shouldRetry: 'false', retryAfter: '25920', retryAfterMs: '25920000' });
    });
  });

  describe("the last target's upstream saying x-should-retry: false itself", () => {
    const refused = failure(429, 'upstream_rate_limited', { shouldRetry: 'false', retryAfter: '7' });

    it('after a target a retry may get past (a 503, a short 429): dropped, the retry advice kept', () => {
      const out = allTargetsFailed([{ label: 'a/m', failure: failure(503, 'upstream_overloaded') }, { label: 'b/m', failure: refused }]);
      expect([out.shouldRetry, out.retryAfter]).toEqual([undefined, '7']);
      const limited = allTargetsFailed([{ label: 'a/m', failure: failure(429, 'upstream_rate_limited', { retryAfter: '2' }) }, { label: 'b/m', failure: refused }]);
      expect(limited.shouldRetry).toBeUndefined();
    });

    it('when no earlier failure is worth retrying (a 400, one saying false itself): kept', () => {
      const out = allTargetsFailed([
        { label: 'a/m', failure: failure(400, 'upstream_bad_request') },
        { label: 'b/m', failure: failure(503, 'upstream_overloaded', { shouldRetry: 'false' }) },
        { label: 'c/m', failure: refused },
      ]);
      expect(out.shouldRetry).toBe('false');
    });
  });
});
