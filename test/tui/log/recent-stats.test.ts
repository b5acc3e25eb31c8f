import { describe, expect, it } from 'vitest';
import { formatRecentStats, recentStats } from '../../../src/tui/log/recent-stats.js';
import { report } from './stats-report.js';

describe('recent stats', () => {
  it('requests per minute over 5 minutes, error rate, percentiles', () => {
    expect(formatRecentStats(recentStats(report(1500, 15, 420, 1900)))).toBe('last 5 min: 300 req/min · errors 1.0% · p50 420ms · p95 1.90s');
    expect(formatRecentStats(recentStats(report(3, 1, 100, 200)))).toBe('last 5 min: 0.6 req/min · errors 33% · p50 100ms · p95 200ms');
    expect(formatRecentStats(recentStats(report(60, 0, 5, 9)))).toBe('last 5 min: 12.0 req/min · errors 0% · p50 5ms · p95 9ms');
  });

  it('without requests', () => {
    expect(formatRecentStats(recentStats(report(0, 0, 0, 0)))).toBe('last 5 min: 0 req/min · errors - · p50 - · p95 -');
  });
});

describe('recent stats in a narrow footer', () => {
  const s = recentStats(report(1500, 15, 420, 1900));
  it('shortens its words, then leaves out p50, then p95, never cutting a part', () => {
    expect(formatRecentStats(s, 80)).toBe('last 5 min: 300 req/min · errors 1.0% · p50 420ms · p95 1.90s');
    expect(formatRecentStats(s, 60)).toBe('5 min: 300 req/min · errors 1.0% · p50 420ms · p95 1.90s');
    expect(formatRecentStats(s, 50)).toBe('5m: 300/min · err 1.0% · p50 420ms · p95 1.90s');
    expect(formatRecentStats(s, 40)).toBe('5m: 300/min · err 1.0% · p95 1.90s');
    expect(formatRecentStats(s, 30)).toBe('5m: 300/min · err 1.0%');
    expect(formatRecentStats(s, 20)).toBe('5m 300/min err 1.0%');
    expect(formatRecentStats(s, 12)).toBe('5m 300/min');
  });

  it('fits every width from 20 to 80 whole', () => {
    for (const r of [recentStats(report(0, 0, 0, 0)), recentStats(report(3, 1, 100, 200)), recentStats(report(99_999, 1234, 65_000, 125_000))]) {
      for (let width = 20; width <= 80; width++) expect(formatRecentStats(r, width).length, `${width}`).toBeLessThanOrEqual(width);
    }
  });
});
