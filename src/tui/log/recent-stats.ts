/**
 * The log footer's numbers: requests per minute, error rate and p50/p95 latency over the last
 * five minutes, from the daemon's stats (GET /admin/stats, what `svc-proxy stats --since 5m` asks).
 */
import { formatMs } from '../../cli/log-format.js';
import type { StatsReport } from '../../log/stats.js';
import { textWidth } from '../../util/text-width.js';

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

/**
 * The fullest wording that fits `width` whole: shorter words first, then p50, then p95, so a
 * narrow footer keeps the rate and the error rate whole rather than cutting into them.
 */
export function formatRecentStats(s: RecentStats, width = Infinity): string {
  const err = s.errorRate === null ? '-' : `${(s.errorRate * 100).toFixed(s.errorRate === 0 || s.errorRate >= 0.1 ? 0 : 1)}%`;
  const p50 = s.requests > 0 ? formatMs(s.p50) : '-';
  const p95 = s.requests > 0 ? formatMs(s.p95) : '-';
  const r = rate(s.perMinute);
  const forms = [
    `last 5 min: ${r} req/min · errors ${err} · p50 ${p50} · p95 ${p95}`,
    `5 min: ${r} req/min · errors ${err} · p50 ${p50} · p95 ${p95}`,
    `5m: ${r}/min · err ${err} · p50 ${p50} · p95 ${p95}`,
    `5m: ${r}/min · err ${err} · p95 ${p95}`,
    `5m: ${r}/min · err ${err}`,
    `5m ${r}/min err ${err}`,
    `5m ${r}/min`,
  ];
  return forms.find((f) => textWidth(f) <= width) ?? forms[forms.length - 1]!;
}
