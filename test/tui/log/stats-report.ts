import type { StatsReport } from '../../../src/log/stats.js';

/** A summary with only the figures the Log footer reads: its total's requests, errors and percentiles. */
export function report(requests: number, errors: number, p50: number, p95: number): StatsReport {
  const row = { name: 'total', requests, errors, cancelled: 0, fallbacks: 0, streamed: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0, p50LatencyMs: p50, p95LatencyMs: p95, p50TtfbMs: null };
  return { by: 'provider', until: new Date().toISOString(), total: row, rows: [] };
}
