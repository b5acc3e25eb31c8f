/**
 * The log footer's numbers: requests per minute, error rate and p50/p95 latency over the last
 * five minutes, from the daemon's stats (GET /admin/stats, what `svc-proxy stats --since 5m` asks).
 */
import { formatMs } from '../../cli/log-format.js';
import type { StatsReport } from '../../log/stats.js';

export const RECENT_WINDOW_MS = 5 * 60_000;

export interface RecentStats {
  requests: number;
  perMinute: number;
  /** 0..1; null without requests. */
  errorRate: number | null;
  p50: number;
  p95: number;
}

export function recentStats(report: StatsReport, windowMs: number = RECENT_WINDOW_MS): RecentStats {
  const t = report.total;
  return {
    requests: t.requests,
    perMinute: t.requests / (windowMs / 60_000),
    errorRate: t.requests > 0 ? t.errors / t.requests : null,
    p50: t.p50LatencyMs,
    p95: t.p95LatencyMs,
  };
}

function rate(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2).replace(/\.?0+$/, '') || '0';
}

export function formatRecentStats(s: RecentStats): string {
  const err = s.errorRate === null ? '-' : `${(s.errorRate * 100).toFixed(s.errorRate === 0 || s.errorRate >= 0.1 ? 0 : 1)}%`;
  const lat = s.requests > 0 ? `p50 ${formatMs(s.p50)} · p95 ${formatMs(s.p95)}` : 'p50 - · p95 -';
  return `last 5 min: ${rate(s.perMinute)} req/min · errors ${err} · ${lat}`;
}
