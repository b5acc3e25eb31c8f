/**
 * Reading the log: newest entries first from the in-memory ring (when a daemon holds one), then
 * older ones from the files. The same code serves the admin API and the CLI without a daemon.
 */
import type { RequestLogEntry } from './entry.js';
import { compileFilter, type LogFilter } from './filter.js';
import { scanFiles } from './read-files.js';
import { StatsAccumulator, type StatsBy, type StatsReport } from './stats.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;

export interface LogQuery extends LogFilter {
  /** Most entries returned (default 100, at most 10,000). */
  limit?: number;
}

export interface LogSource {
  /** Folder of the JSONL files. */
  dir: string;
  /** Entries held in memory, newest first (not yet on disk ones included). */
  ring?: () => Iterable<RequestLogEntry>;
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)));
}

/** Visits matching entries newest first (ring, then files) until `visit` returns false. */
export async function scanLog(src: LogSource, filter: LogFilter, visit: (e: RequestLogEntry) => boolean): Promise<void> {
  const matches = compileFilter(filter);
  const seen = new Set<string>();
  if (src.ring) {
    for (const e of src.ring()) {
      seen.add(e.id);
      if (matches(e) && !visit(e)) return;
    }
  }
  await scanFiles(src.dir, (e) => !matches(e) || visit(e), {
    ...(filter.since !== undefined ? { since: filter.since } : {}),
    skipIds: seen,
  });
}

/** The latest matching entries, newest first. */
export async function queryLog(src: LogSource, q: LogQuery): Promise<RequestLogEntry[]> {
  const limit = clampLimit(q.limit);
  const out: RequestLogEntry[] = [];
  await scanLog(src, q, (e) => {
    out.push(e);
    return out.length < limit;
  });
  return out;
}

export async function statsLog(src: LogSource, filter: LogFilter, by: StatsBy, now: number = Date.now()): Promise<StatsReport> {
  const acc = new StatsAccumulator(by);
  await scanLog(src, filter, (e) => {
    acc.add(e);
    return true;
  });
  return acc.report({ ...(filter.since !== undefined ? { since: filter.since } : {}), until: filter.until ?? now });
}
