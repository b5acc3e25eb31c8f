/** Small text helpers for the TUI's tables. */
import { printable } from '../util/printable.js';
import { clipToWidth, padToWidth, textWidth } from '../util/text-width.js';

/** "just now", "42s ago", "5m ago", "3h ago", "2d ago"; "never" for null. */
export function ago(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return 'never';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

/** `s` cut with … to at most `width` terminal cells (CJK and emoji take 2). */
export function clip(raw: string, width: number): string {
  // names from clients and upstreams: shown, never obeyed by the terminal
  return clipToWidth(printable(raw), width);
}

/** Cells padded to their widths and joined by two spaces; the last cell is clipped to what is left. */
export function row(cells: readonly string[], widths: readonly number[], total: number): string {
  let out = '';
  let used = 0;
  for (let i = 0; i < cells.length; i++) {
    const sep = i === 0 ? '' : '  ';
    const last = i === cells.length - 1;
    const w = last ? Math.max(0, total - used - sep.length) : widths[i]!;
    const cell = sep + padToWidth(clip(cells[i]!, w), last ? 0 : w);
    out += cell;
    used += textWidth(cell);
  }
  return clip(out, total);
}

/** Column widths in cells for `rows` (header included), each at most its cap. */
export function widthsOf(rows: ReadonlyArray<readonly string[]>, caps: readonly number[]): number[] {
  return caps.map((cap, i) => Math.min(cap, Math.max(0, ...rows.map((r) => textWidth(printable(r[i] ?? ''))))));
}
