/**
 * Google's wait (google-retry-info.ts): a RetryInfo's delay, but for a per-day quota used up, whose
 * RetryInfo still says seconds: until the next midnight Pacific time, when Google resets daily
 * quotas — summer time or not, and on the days the clocks change.
 */
import { describe, expect, it } from 'vitest';
import { googleWaitMs, untilPacificMidnightMs } from '../../src/protocols/google-retry-info.js';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);

describe('untilPacificMidnightMs', () => {
  it('summer time (UTC−7) and winter time (UTC−8)', () => {
    expect(untilPacificMidnightMs(at('2026-03-10T15:00:00Z'))).toBe(16 * H); // 08:00 PDT → 07:00Z
    expect(untilPacificMidnightMs(at('2026-01-15T07:59:59Z'))).toBe(1_000); // 23:59:59 PST
    expect(untilPacificMidnightMs(at('2026-01-15T08:00:00Z'))).toBe(24 * H); // midnight PST: the next one
    expect(untilPacificMidnightMs(at('2026-07-01T06:59:59.500Z'))).toBe(500);
  });

  it('on the days the clocks change, the next midnight on the new clock', () => {
    // 01:00 PST on 8 March 2026; at 02:00 the clocks go to 03:00 PDT: midnight is 07:00Z
    expect(untilPacificMidnightMs(at('2026-03-08T09:00:00Z'))).toBe(22 * H);
    // 01:30 PDT on 1 November 2026; at 02:00 the clocks go back to 01:00 PST: midnight is 08:00Z
    expect(untilPacificMidnightMs(at('2026-11-01T08:30:00Z'))).toBe(23.5 * H);
  });
});

describe('googleWaitMs', () => {
  const error = (quotaId: string) => ({
    code: 429,
    status: 'RESOURCE_EXHAUSTED',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '29s' },
    ],
  });
  const now = at('2026-03-10T15:00:00Z');

  it('a per-day quota: until midnight Pacific, not the RetryInfo’s seconds', () => {
    expect(googleWaitMs(error('GenerateRequestsPerDayPerProjectPerModel-FreeTier'), now)).toBe(16 * H);
  });

  it('a per-minute quota: the RetryInfo’s delay', () => {
    expect(googleWaitMs(error('GenerateRequestsPerMinutePerProjectPerModel-FreeTier'), now)).toBe(29_000);
    expect(googleWaitMs({ details: [] }, now)).toBeUndefined();
  });
});
