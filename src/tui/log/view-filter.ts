/**
 * What the log screen shows: a text filter (`/`), a status class and a service key, applied to the
 * entries in memory so switching is instant. Status classes mean what `svc-proxy logs --status`
 * means (same parser), but for a stream cut part-way: logged 200, it is an error here.
 */
import type { RequestLogEntry } from '../../log/entry.js';
import { parseStatusFilter } from '../../log/filter.js';
import { entryFailed } from './entry-failed.js';

export const STATUS_CLASSES = ['all', 'ok', '4xx', '5xx', 'error'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface ViewFilter {
  text: string;
  status: StatusClass;
  /** Key name (or id); null = every key. */
  key: string | null;
}

export const NO_FILTER: ViewFilter = { text: '', status: 'all', key: null };

export function isFiltering(f: ViewFilter): boolean {
  return f.text.trim() !== '' || f.status !== 'all' || f.key !== null;
}

export function nextStatusClass(s: StatusClass): StatusClass {
  return STATUS_CLASSES[(STATUS_CLASSES.indexOf(s) + 1) % STATUS_CLASSES.length]!;
}

/** Cycles null → each key → null. */
export function nextKey(current: string | null, keys: readonly string[]): string | null {
  if (keys.length === 0) return null;
  if (current === null) return keys[0]!;
  const i = keys.indexOf(current);
  return i < 0 || i === keys.length - 1 ? null : keys[i + 1]!;
}

/** Everything the text filter looks through. */
function haystack(e: RequestLogEntry): string {
  return [
    e.id,
    e.keyName,
    e.keyId,
    e.base,
    e.endpoint,
    e.modelAsked,
    e.provider && `${e.provider}/${e.model ?? ''}`,
    String(e.status),
    e.errorCode,
    ...e.attempts.map((a) => `${a.target} ${a.errorCode ?? ''}`),
  ]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
}

/** 'error' and 'ok' go by entryFailed: a stream cut part-way is logged 200 and is an error here. */
function statusTest(s: StatusClass): ((e: RequestLogEntry) => boolean) | undefined {
  if (s === 'all') return undefined;
  if (s === 'error') return entryFailed;
  if (s === 'ok') return (e) => !entryFailed(e);
  const test = parseStatusFilter(s);
  return (e) => test(e.status);
}

export function compileViewFilter(f: ViewFilter): (e: RequestLogEntry) => boolean {
  const text = f.text.trim().toLowerCase();
  const status = statusTest(f.status);
  const key = f.key;
  return (e) => {
    if (status && !status(e)) return false;
    if (key !== null && e.keyName !== key && e.keyId !== key) return false;
    if (text && !haystack(e).includes(text)) return false;
    return true;
  };
}

/**
 * What the footer says of an active filter (undefined when none); `short` leaves out the label.
 * The typed text goes first: where a narrow footer has room for only part, that part shows it.
 */
export function describeFilter(f: ViewFilter, short = false): string | undefined {
  const parts: string[] = [];
  if (f.text) parts.push(`/${f.text}`);
  if (f.status !== 'all') parts.push(`status ${f.status}`);
  if (f.key !== null) parts.push(`key ${f.key}`);
  if (parts.length === 0) return undefined;
  return short ? parts.join(' · ') : `filter: ${parts.join(' · ')}`;
}
