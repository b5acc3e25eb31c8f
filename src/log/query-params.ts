/**
 * The log query as it travels in a URL (admin API) or on a command line: plain strings in,
 * a validated LogQuery out. Bad values throw FilterError/SinceError with a message for the user.
 */
import { FilterError, parseStatusFilter, type LogFilter } from './filter.js';
import type { LogQuery } from './query.js';
import { parseSince } from './since.js';
import { STATS_BY, type StatsBy } from './stats.js';

export interface LogQueryParams {
  limit?: string | undefined;
  key?: string | undefined;
  provider?: string | undefined;
  status?: string | undefined;
  base?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

export function parseLogFilter(p: LogQueryParams, now: number = Date.now()): LogFilter {
  const f: LogFilter = {};
  const key = nonEmpty(p.key);
  const provider = nonEmpty(p.provider);
  const status = nonEmpty(p.status);
  const base = nonEmpty(p.base);
  const since = nonEmpty(p.since);
  const until = nonEmpty(p.until);
  if (key) f.key = key;
  if (provider) f.provider = provider;
  if (status) {
    parseStatusFilter(status); // validate now, not on the first entry
    f.status = status;
  }
  if (base) f.base = base;
  if (since && since !== 'all') f.since = parseSince(since, now);
  if (until) f.until = parseSince(until, now);
  return f;
}

export function parseLogQuery(p: LogQueryParams, now: number = Date.now()): LogQuery {
  const q: LogQuery = parseLogFilter(p, now);
  const limit = nonEmpty(p.limit);
  if (limit !== undefined) {
    if (!/^\d+$/.test(limit) || Number(limit) < 1) throw new FilterError(`invalid limit "${limit}": use a positive whole number`);
    q.limit = Number(limit);
  }
  return q;
}

export function parseStatsBy(v: string | undefined): StatsBy {
  const by = nonEmpty(v) ?? 'provider';
  if (!(STATS_BY as readonly string[]).includes(by)) throw new FilterError(`invalid grouping "${by}": use ${STATS_BY.join(', ')}`);
  return by as StatsBy;
}

/** Back to URL parameters (the CLI asking the daemon): times as absolute ISO, so both agree. */
export function logQueryToParams(q: LogQuery & { by?: StatsBy }): URLSearchParams {
  const sp = new URLSearchParams();
  if (q.limit !== undefined) sp.set('limit', String(q.limit));
  if (q.key) sp.set('key', q.key);
  if (q.provider) sp.set('provider', q.provider);
  if (q.status) sp.set('status', q.status);
  if (q.base) sp.set('base', q.base);
  if (q.since !== undefined) sp.set('since', new Date(q.since).toISOString());
  if (q.until !== undefined) sp.set('until', new Date(q.until).toISOString());
  if (q.by) sp.set('by', q.by);
  return sp;
}
