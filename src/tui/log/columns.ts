/**
 * The log table's columns and how they fit a terminal width: fixed columns keep their width,
 * model columns share what is left, and at narrow widths the least needed columns go first
 * (base, TTFB, tokens, who answered, flags, key, latency) until time, model and status are left,
 * the model cut to what remains; the detail pane always has every field.
 */
import { formatCount, formatMs } from '../../cli/log-format.js';
import type { RequestLogEntry } from '../../log/entry.js';
import { printable } from '../../util/printable.js';
import { fitToWidth } from '../../util/text-width.js';

export interface LogColumn {
  id: 'time' | 'key' | 'base' | 'model' | 'answered' | 'status' | 'latency' | 'ttfb' | 'tokens' | 'flags';
  title: string;
  /** Width before growing. */
  width: number;
  /** Share of the spare width this column takes (0 = fixed). */
  grow: number;
  max: number;
  right?: boolean;
  /** Dropped at narrow widths, lowest first; undefined = always shown. */
  dropOrder?: number;
  cell(e: RequestLogEntry): string;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

export function clockTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso.slice(11, 19);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

export function baseLabel(base: string): string {
  return base.startsWith('group:') ? `g/${base.slice(6)}` : 'direct';
}

export function answeredBy(e: RequestLogEntry): string {
  return e.provider ? `${e.provider}/${e.model ?? '?'}` : '-';
}

export function statusText(status: number): string {
  return status === 0 ? 'ERR' : String(status);
}

export function tokensText(e: RequestLogEntry): string {
  const u = e.usage;
  if (!u || (u.input === undefined && u.output === undefined)) return '-';
  return `${formatCount(u.input)}/${formatCount(u.output)}`;
}

/** S = streamed; F<n> = fell back, n attempts. */
export function flagsText(e: RequestLogEntry): string {
  return [e.streamed ? 'S' : '', e.fallback ? `F${e.attempts.length}` : ''].filter(Boolean).join(' ');
}

export const LOG_COLUMNS: readonly LogColumn[] = [
  { id: 'time', title: 'TIME', width: 8, grow: 0, max: 8, cell: (e) => clockTime(e.time) },
  { id: 'key', title: 'KEY', width: 8, grow: 1, max: 16, dropOrder: 6, cell: (e) => e.keyName ?? e.keyId ?? '-' },
  { id: 'base', title: 'BASE', width: 8, grow: 1, max: 16, dropOrder: 1, cell: (e) => baseLabel(e.base) },
  { id: 'model', title: 'MODEL', width: 12, grow: 3, max: 48, cell: (e) => e.modelAsked ?? '-' },
  { id: 'answered', title: 'ANSWERED BY', width: 16, grow: 4, max: 56, dropOrder: 4, cell: answeredBy },
  { id: 'status', title: 'ST', width: 3, grow: 0, max: 3, right: true, cell: (e) => statusText(e.status) },
  { id: 'latency', title: 'LAT', width: 6, grow: 0, max: 6, right: true, dropOrder: 7, cell: (e) => formatMs(e.latencyMs) },
  { id: 'ttfb', title: 'TTFB', width: 6, grow: 0, max: 6, right: true, dropOrder: 2, cell: (e) => formatMs(e.ttfbMs) },
  { id: 'tokens', title: 'TOKENS', width: 9, grow: 1, max: 11, right: true, dropOrder: 3, cell: tokensText },
  { id: 'flags', title: 'S/F', width: 4, grow: 0, max: 5, dropOrder: 5, cell: flagsText },
];

export interface PlacedColumn {
  col: LogColumn;
  width: number;
}

export const GAP = 1;

/** Columns that fit `total` characters, with their widths. */
export function fitColumns(total: number, columns: readonly LogColumn[] = LOG_COLUMNS): PlacedColumn[] {
  let shown = [...columns];
  const need = (cols: readonly LogColumn[]) => cols.reduce((n, c) => n + c.width, 0) + GAP * Math.max(0, cols.length - 1);
  while (need(shown) > total) {
    const droppable = shown.filter((c) => c.dropOrder !== undefined).sort((a, b) => a.dropOrder! - b.dropOrder!);
    if (droppable.length === 0) break;
    shown = shown.filter((c) => c !== droppable[0]);
  }
  const placed = shown.map((col) => ({ col, width: col.width }));
  // narrower still than time, model and status: the model gives up cells (its cells end in …)
  const model = placed.find((p) => p.col.id === 'model');
  if (model) model.width = Math.max(1, model.width - Math.max(0, need(shown) - total));
  // Hand out the spare width by weight, one character at a time so rounding never overshoots.
  let spare = total - need(shown);
  while (spare > 0) {
    const growable = placed.filter((p) => p.col.grow > 0 && p.width < p.col.max);
    if (growable.length === 0) break;
    // The column furthest below its share gets the next character.
    growable.sort((a, b) => a.width / a.col.grow - b.width / b.col.grow);
    growable[0]!.width++;
    spare--;
  }
  return placed;
}

/** `raw` cut (with …) or padded to exactly `width` terminal cells. */
export function fitCell(raw: string, width: number, right = false): string {
  // model ids, key names, upstream answers: shown, never obeyed by the terminal
  return fitToWidth(printable(raw), width, right);
}
