/**
 * Which log entries a reader wants: the same filter for the admin API, the SSE feed, the offline
 * CLI and stats. Compiled once into a predicate so scanning thousands of entries stays cheap.
 */
import type { RequestLogEntry } from './entry.js';

export interface LogFilter {
  /** Service key id or name. */
  key?: string;
  /** Provider (or endpoint/local slug) that answered or was tried. */
  provider?: string;
  /** Comma-separated: exact codes (`429`), classes (`4xx`), `error` (>= 400 or no answer), `ok`. */
  status?: string;
  /** Base: `group:<slug>`, a bare group slug, or `provider`. */
  base?: string;
  /** Entries that arrived at or after this time (epoch ms). */
  since?: number;
  /** Entries that arrived before this time (epoch ms). */
  until?: number;
}

export class FilterError extends Error {
  readonly code = 'invalid_filter';
}

type StatusTest = (status: number) => boolean;

function statusTest(token: string): StatusTest {
  const t = token.trim().toLowerCase();
  // an HTTP status is 100-599 (a request nobody answered is in "error")
  if (/^[1-5]\d\d$/.test(t)) {
    const code = Number(t);
    return (s) => s === code;
  }
  if (/^[1-5]xx$/.test(t)) {
    const cls = Number(t[0]);
    return (s) => Math.floor(s / 100) === cls;
  }
  if (t === 'error' || t === 'errors') return (s) => s >= 400 || s === 0;
  if (t === 'ok') return (s) => s > 0 && s < 400;
  throw new FilterError(`invalid status filter "${token}": use a code (100-599, e.g. 429), a class (4xx, 5xx), "ok" or "error", comma-separated`);
}

/** Validates the status expression; throws FilterError. */
export function parseStatusFilter(expr: string): StatusTest {
  const tests = expr.split(',').filter((p) => p.trim() !== '').map(statusTest);
  if (tests.length === 0) throw new FilterError('empty status filter');
  return (s) => tests.some((t) => t(s));
}

/** The provider part of a `provider/model` target. */
function providerOf(target: string): string {
  const i = target.indexOf('/');
  return i < 0 ? target : target.slice(0, i);
}

export function compileFilter(f: LogFilter): (e: RequestLogEntry) => boolean {
  const tests: ((e: RequestLogEntry) => boolean)[] = [];
  if (f.key) {
    const k = f.key;
    tests.push((e) => e.keyId === k || e.keyName === k);
  }
  if (f.provider) {
    const p = f.provider;
    tests.push((e) => e.provider === p || e.attempts.some((a) => providerOf(a.target) === p));
  }
  if (f.status) {
    const st = parseStatusFilter(f.status);
    tests.push((e) => st(e.status));
  }
  if (f.base) {
    const b = f.base;
    const asGroup = b.startsWith('group:') ? b : `group:${b}`;
    tests.push((e) => e.base === b || e.base === asGroup);
  }
  if (f.since !== undefined || f.until !== undefined) {
    const since = f.since ?? -Infinity;
    const until = f.until ?? Infinity;
    tests.push((e) => {
      const t = Date.parse(e.time);
      return t >= since && t < until;
    });
  }
  if (tests.length === 0) return () => true;
  return (e) => tests.every((t) => t(e));
}
