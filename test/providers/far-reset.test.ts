import { describe, expect, it } from 'vitest';
import { beyondAdvice, farResetWords, spanWords } from '../../src/providers/far-reset.js';
import { MAX_ADVISED_WAIT_MS } from '../../src/providers/retry-wait.js';

const NOW = Date.UTC(2026, 10, 29, 7, 20, 0);

describe('beyondAdvice', () => {
  it('a wait past the longest one to sit out', () => {
    expect(beyondAdvice(MAX_ADVISED_WAIT_MS)).toBe(false);
    expect(beyondAdvice(MAX_ADVISED_WAIT_MS + 1)).toBe(true);
  });
});

describe('farResetWords', () => {
  it('a rate limit: when it resets, in a span and a time of day (UTC), rounded up', () => {
    expect(farResetWords(429, 7 * 3_600_000 + 12 * 60_000, NOW)).toBe('the limit resets in 7 h 12 min (at 14:32 UTC)');
    expect(farResetWords(429, 6 * 60_000 + 1, NOW)).toBe('the limit resets in 7 min (at 07:27 UTC)');
  });

  it('a used-up quota (402, as a stream decoder reads a per-day one) resets as a limit does', () => {
    expect(farResetWords(402, 7 * 3_600_000 + 12 * 60_000, NOW)).toBe('the limit resets in 7 h 12 min (at 14:32 UTC)');
  });

  it('another day is named; another status is the wait the provider asks for', () => {
    expect(farResetWords(429, 20 * 3_600_000, NOW)).toBe('the limit resets in 20 h (at 2026-11-30 03:20 UTC)');
    expect(farResetWords(503, 2 * 3_600_000, NOW)).toBe('the provider asks not to retry for 2 h (until 09:20 UTC)');
  });
});

describe('spanWords', () => {
  it('days, hours and minutes, minutes only without days', () => {
    expect(spanWords(45 * 60_000)).toBe('45 min');
    expect(spanWords(3 * 3_600_000)).toBe('3 h');
    expect(spanWords(51 * 3_600_000 + 5 * 60_000)).toBe('2 d 3 h');
    expect(spanWords(1)).toBe('1 min');
  });
});
