/**
 * The request log and its statistics as text: an aligned table whose columns keep their width
 * while following (so live rows line up with the backlog), compact numbers, optional colour.
 */
import { attemptsAreUnlisted, type RequestLogEntry } from '../log/entry.js';
import type { StatsReport, StatsRow } from '../log/stats.js';
import { printable } from '../util/printable.js';
import { fitToWidth, padToWidth, textWidth } from '../util/text-width.js';

export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}

export function formatCount(n: number | undefined): string {
  if (n === undefined) return '-';
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Local time; the date is added when it is not today. */
export function formatTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
  const sameDay = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  return sameDay ? time : `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${time}`;
}

function baseLabel(base: string): string {
  return base.startsWith('group:') ? `g/${base.slice(6)}` : 'direct';
}

function tokens(e: RequestLogEntry): string {
  const u = e.usage;
  if (!u || (u.input === undefined && u.output === undefined)) return '-';
  return `${formatCount(u.input)}/${formatCount(u.output)}`;
}

/** S = streamed; F<n> = fell back, n attempts. */
function flags(e: RequestLogEntry): string {
  const f: string[] = [];
  if (e.streamed) f.push('S');
  if (e.fallback) f.push(`F${e.attempts.length}`);
  return f.join(' ');
}

type Colour = (s: string, status: number) => string;
const plain: Colour = (s) => s;
const ansi: Colour = (s, status) => {
  const code = status >= 500 || status === 0 ? 31 : status >= 400 ? 33 : 32;
  return `\x1b[${code}m${s}\x1b[39m`;
};

interface Column {
  title: string;
  get(e: RequestLogEntry, now: Date): string;
  /** Widest a cell may grow (longer values are cut with …). */
  max: number;
  right?: boolean;
}

const COLUMNS: Column[] = [
  { title: 'TIME', get: (e, now) => formatTime(e.time, now), max: 19 },
  { title: 'KEY', get: (e) => e.keyName ?? e.keyId ?? '-', max: 16 },
  { title: 'BASE', get: (e) => baseLabel(e.base), max: 16 },
  { title: 'API', get: apiLabel, max: 24 },
  { title: 'MODEL', get: (e) => e.modelAsked ?? '-', max: 48 },
  { title: 'ANSWERED BY', get: (e) => (e.provider ? `${e.provider}/${e.model ?? '?'}` : '-'), max: 48 },
  { title: 'STATUS', get: (e) => (e.status === 0 ? '-' : String(e.status)), max: 6, right: true },
  { title: 'LATENCY', get: (e) => formatMs(e.latencyMs), max: 8, right: true },
  { title: 'TTFB', get: (e) => formatMs(e.ttfbMs), max: 8, right: true },
  { title: 'TOKENS', get: tokens, max: 13, right: true },
  { title: 'FLAGS', get: flags, max: 6 },
  { title: 'ERROR', get: errorText, max: 40 },
];

/**
 * The entry's error code; for a model list answered without some providers, each of those with
 * its code (its attempts: list-failures.ts), since its 200 alone would hide them.
 */
function errorText(e: RequestLogEntry): string {
  if (e.errorCode !== undefined) return e.errorCode;
  if (!attemptsAreUnlisted(e)) return '';
  return e.attempts.map((a) => `${a.target}: ${a.errorCode ?? a.status}`).join(', ');
}
/**
 * The endpoint, or for a request refused before its route was known (a 404 path, a 401) the end
 * of the path it asked for: `unknown` alone says nothing of what the tool got wrong.
 */
function apiLabel(e: RequestLogEntry): string {
  const label = endpointLabel(e);
  return e.preflight ? `preflight ${label}` : label;
}

function endpointLabel(e: RequestLogEntry): string {
  if (e.endpoint !== 'unknown' || e.path === undefined) return e.endpoint;
  const path = e.path.split('?', 1)[0]!;
  return path.length <= 24 ? path : `…${path.slice(-23)}`;
}

const STATUS_COL = COLUMNS.findIndex((c) => c.title === 'STATUS');

function fit(raw: string, width: number, right: boolean | undefined): string {
  // model ids and error codes come from clients and upstreams: shown, never obeyed by the terminal
  // cut and padded by terminal cells, never inside a character (CJK and emoji take two)
  return fitToWidth(printable(raw), width, right);
}

export class LogTable {
  private readonly widths: number[];
  private readonly colour: Colour;

  /** Widths come from `sample` (the backlog); `minWidths` leaves room for rows still to come. */
  constructor(sample: readonly RequestLogEntry[], opts: { colour?: boolean; minWidths?: boolean; now?: Date } = {}) {
    const now = opts.now ?? new Date();
    this.colour = opts.colour ? ansi : plain;
    this.widths = COLUMNS.map((c) => {
      const floor = opts.minWidths ? Math.min(c.max, Math.max(c.title.length, 10)) : c.title.length;
      return Math.min(c.max, Math.max(floor, ...sample.map((e) => textWidth(printable(c.get(e, now))))));
    });
  }

  header(): string {
    return COLUMNS.map((c, i) => fit(c.title, this.widths[i]!, c.right)).join('  ').trimEnd();
  }

  row(e: RequestLogEntry, now: Date = new Date()): string {
    return COLUMNS.map((c, i) => {
      const cell = fit(c.get(e, now), this.widths[i]!, c.right);
      return i === STATUS_COL ? this.colour(cell, e.status) : cell;
    })
      .join('  ')
      .trimEnd();
  }
}

// ---------------------------------------------------------------------------------------------
// stats
// ---------------------------------------------------------------------------------------------

/** `part` of `whole` as a short percentage; `-` when there is no whole. */
export function percentOf(part: number, whole: number): string {
  if (whole === 0) return '-';
  const p = (part / whole) * 100;
  return `${p === 0 || p >= 10 ? p.toFixed(0) : p.toFixed(1)}%`;
}

function statsCells(r: StatsRow): string[] {
  return [
    // a model id or key name from a client: shown, never obeyed by the terminal
    printable(r.name),
    String(r.requests),
    String(r.errors),
    percentOf(r.errors, r.requests),
    String(r.cancelled),
    String(r.fallbacks),
    formatCount(r.inputTokens),
    formatCount(r.outputTokens),
    formatCount(r.cachedTokens),
    formatMs(r.p50LatencyMs),
    formatMs(r.p95LatencyMs),
    r.p50TtfbMs === null ? '-' : formatMs(r.p50TtfbMs),
  ];
}

export function formatStats(report: StatsReport): string {
  const titles = [report.by.toUpperCase(), 'REQUESTS', 'ERRORS', 'ERR%', 'CANCELLED', 'FALLBACKS', 'TOKENS IN', 'TOKENS OUT', 'CACHED', 'P50', 'P95', 'P50 TTFB'];
  const rows = [...report.rows.map(statsCells), statsCells({ ...report.total, name: 'TOTAL' })];
  const widths = titles.map((t, i) => Math.max(textWidth(t), ...rows.map((r) => textWidth(r[i]!))));
  const line = (cells: string[]) => cells.map((c, i) => padToWidth(c, widths[i]!, i !== 0)).join('  ');
  const window = report.since ? `since ${formatTime(report.since)}` : 'in all retained entries';
  return [`Requests ${window}, by ${report.by}`, '', line(titles), ...rows.map(line)].join('\n');
}
