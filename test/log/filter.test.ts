import { describe, expect, it } from 'vitest';
import { compileFilter, FilterError, parseStatusFilter } from '../../src/log/filter.js';
import { parseSince, SinceError } from '../../src/log/since.js';
import { makeEntry } from './make-entry.js';

describe('status filter', () => {
  it('takes codes, classes, ok/error, comma-separated', () => {
    const t = parseStatusFilter('4xx,503');
    expect([200, 404, 429, 500, 503].map(t)).toEqual([false, true, true, false, true]);
    const err = parseStatusFilter('error');
    expect([0, 200, 399, 400, 500].map(err)).toEqual([true, false, false, true, true]);
    expect(parseStatusFilter('ok')(204)).toBe(true);
    expect(() => parseStatusFilter('6xx')).toThrow(FilterError);
    expect(() => parseStatusFilter('20')).toThrow(/invalid status filter "20"/);
    expect(() => parseStatusFilter('600')).toThrow(/invalid status filter "600"/);
    expect(() => parseStatusFilter('099')).toThrow(/invalid status filter "099"/);
    expect(() => parseStatusFilter(',')).toThrow(FilterError);
  });
});

describe('compileFilter', () => {
  it('matches key by id or name, provider by answer or attempt, base, and time window', () => {
    const e = makeEntry({
      time: '2025-01-01T12:00:00.000Z',
      keyId: 'k1',
      keyName: 'ci',
      base: 'group:coding',
      provider: 'anthropic',
      attempts: [
        { target: 'openai/gpt-5', status: 500, latencyMs: 1 },
        { target: 'anthropic/claude', status: 200, latencyMs: 1 },
      ],
    });
    const yes = (f: Parameters<typeof compileFilter>[0]) => compileFilter(f)(e);
    expect(yes({})).toBe(true);
    expect(yes({ key: 'k1' })).toBe(true);
    expect(yes({ key: 'ci' })).toBe(true);
    expect(yes({ key: 'other' })).toBe(false);
    expect(yes({ provider: 'openai' })).toBe(true);
    expect(yes({ provider: 'anthropic' })).toBe(true);
    expect(yes({ provider: 'gemini' })).toBe(false);
    expect(yes({ base: 'coding' })).toBe(true);
    expect(yes({ base: 'group:coding' })).toBe(true);
    expect(yes({ base: 'provider' })).toBe(false);
    expect(yes({ since: Date.parse('2025-01-01T12:00:00Z') })).toBe(true);
    expect(yes({ since: Date.parse('2025-01-01T12:00:01Z') })).toBe(false);
    expect(yes({ until: Date.parse('2025-01-01T12:00:00Z') })).toBe(false);
    expect(yes({ status: '2xx', provider: 'openai', key: 'ci' })).toBe(true);
  });
});

describe('parseSince', () => {
  const now = Date.parse('2025-06-01T00:00:00Z');
  it('durations back from now', () => {
    expect(parseSince('30s', now)).toBe(now - 30_000);
    expect(parseSince('10m', now)).toBe(now - 600_000);
    expect(parseSince('2h', now)).toBe(now - 7_200_000);
    expect(parseSince('1.5h', now)).toBe(now - 5_400_000);
    expect(parseSince('7d', now)).toBe(now - 7 * 86_400_000);
    expect(parseSince('1w', now)).toBe(now - 7 * 86_400_000);
    // further back than the epoch: everything (no date before 1970 to quote)
    expect(parseSince('99999999d', now)).toBe(0);
  });
  it('ISO dates and times', () => {
    expect(parseSince('2025-01-31', now)).toBe(Date.parse('2025-01-31'));
    expect(parseSince('2025-01-31T12:00:00Z', now)).toBe(Date.parse('2025-01-31T12:00:00Z'));
    expect(parseSince('2025-01-31 12:00', now)).toBe(Date.parse('2025-01-31T12:00'));
  });
  it('rejects anything else with a helpful message', () => {
    for (const bad of ['', 'yesterday', '10', '10x', '2025-13-45']) expect(() => parseSince(bad, now)).toThrow(SinceError);
    expect(() => parseSince('soon', now)).toThrow(/use a duration like/);
  });
});
