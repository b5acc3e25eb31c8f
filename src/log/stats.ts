/**
 * Summaries of log entries by provider, model or key: requests, errors, tokens, latency
 * percentiles — of requests, so a CORS preflight (a browser's question, answered by svc-proxy
 * itself) is left out. Fed one entry at a time so a long window never needs the entries kept
 * around — only their latencies, which exact percentiles require.
 */
import { attemptsAreUnlisted, type RequestLogEntry } from './entry.js';

export type StatsBy = 'provider' | 'model' | 'key';
export const STATS_BY: readonly StatsBy[] = ['provider', 'model', 'key'];

export interface StatsRow {
  /** The provider, `provider/model`, or key name this row sums up; "(none)" when unknown. */
  name: string;
  requests: number;
  /** Status >= 400, or no answer at all; a client that hung up first is not one (see `cancelled`). */
  errors: number;
  /** The client hung up before its answer began (499): a user stopping a tool, not a failure. */
  cancelled: number;
  /** Requests that tried more than one target. */
  fallbacks: number;
  streamed: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  p50LatencyMs: number;
  p95LatencyMs: number;
  /** Over streamed requests that reached their first byte; null when there were none. */
  p50TtfbMs: number | null;
}

export interface StatsReport {
  by: StatsBy;
  /** ISO bounds of the window asked for (since may be absent: everything retained). */
  since?: string;
  until: string;
  total: StatsRow;
  rows: StatsRow[];
}

const NONE = '(none)';

/** Nearest-rank percentile of an ascending array (0 for an empty one). */
export function percentile(sortedAsc: readonly number[], p: number): number {
  if (sortedAsc.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sortedAsc.length);
  return sortedAsc[Math.min(sortedAsc.length, Math.max(1, rank)) - 1]!;
}

function providerOf(target: string): string {
  const i = target.indexOf('/');
  return i < 0 ? target : target.slice(0, i);
}

/**
 * The row an entry belongs to. A request nobody answered counts for the last target it tried;
 * a model list's attempts are the providers it was answered without, and it is none of theirs.
 */
export function statsKey(e: RequestLogEntry, by: StatsBy): string {
  const last = e.attempts.length > 0 && !attemptsAreUnlisted(e) ? e.attempts[e.attempts.length - 1]!.target : undefined;
  switch (by) {
    case 'provider':
      return e.provider ?? (last ? providerOf(last) : NONE);
    case 'model':
      if (e.provider && e.model) return `${e.provider}/${e.model}`;
      return last ?? e.modelAsked ?? NONE;
    case 'key':
      return e.keyName ?? e.keyId ?? NONE;
  }
}

/** The status the log gives a request whose client left before its answer began. */
const CLIENT_GONE = 499;

class Bucket {
  requests = 0;
  errors = 0;
  cancelled = 0;
  fallbacks = 0;
  streamed = 0;
  inputTokens = 0;
  outputTokens = 0;
  cachedTokens = 0;
  reasoningTokens = 0;
  latencies: number[] = [];
  ttfbs: number[] = [];

  add(e: RequestLogEntry): void {
    this.requests++;
    if (e.status === CLIENT_GONE) this.cancelled++;
    else if (e.status >= 400 || e.status === 0) this.errors++;
    if (e.fallback) this.fallbacks++;
    if (e.streamed) {
      this.streamed++;
      if (typeof e.ttfbMs === 'number') this.ttfbs.push(e.ttfbMs);
    }
    const u = e.usage;
    if (u) {
      this.inputTokens += u.input ?? 0;
      this.outputTokens += u.output ?? 0;
      this.cachedTokens += u.cached ?? 0;
      this.reasoningTokens += u.reasoning ?? 0;
    }
    this.latencies.push(e.latencyMs);
  }

  row(name: string): StatsRow {
    const lat = this.latencies.sort((a, b) => a - b);
    const ttfb = this.ttfbs.sort((a, b) => a - b);
    return {
      name,
      requests: this.requests,
      errors: this.errors,
      cancelled: this.cancelled,
      fallbacks: this.fallbacks,
      streamed: this.streamed,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      cachedTokens: this.cachedTokens,
      reasoningTokens: this.reasoningTokens,
      p50LatencyMs: percentile(lat, 50),
      p95LatencyMs: percentile(lat, 95),
      p50TtfbMs: ttfb.length ? percentile(ttfb, 50) : null,
    };
  }
}

export class StatsAccumulator {
  private readonly total = new Bucket();
  private readonly buckets = new Map<string, Bucket>();

  constructor(readonly by: StatsBy) {}

  add(e: RequestLogEntry): void {
    // a CORS preflight asks the browser's question, not a model's: `logs` shows it, stats do not
    if (e.preflight) return;
    this.total.add(e);
    const k = statsKey(e, this.by);
    let b = this.buckets.get(k);
    if (!b) this.buckets.set(k, (b = new Bucket()));
    b.add(e);
  }

  report(window: { since?: number; until: number }): StatsReport {
    const rows = [...this.buckets].map(([name, b]) => b.row(name));
    rows.sort((a, b) => b.requests - a.requests || (a.name < b.name ? -1 : 1));
    return {
      by: this.by,
      ...(window.since !== undefined ? { since: new Date(window.since).toISOString() } : {}),
      until: new Date(window.until).toISOString(),
      total: this.total.row('total'),
      rows,
    };
  }
}

/** Convenience for a list already in memory. */
export function summarize(entries: Iterable<RequestLogEntry>, by: StatsBy, window: { since?: number; until: number }): StatsReport {
  const acc = new StatsAccumulator(by);
  for (const e of entries) acc.add(e);
  return acc.report(window);
}
