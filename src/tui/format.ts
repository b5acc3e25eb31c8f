/** Small text helpers for the TUI's tables. */
import { printable } from '../util/printable.js';

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

/** `s` cut with … to at most `width` characters. */
export function clip(raw: string, width: number): string {
  if (width <= 0) return '';
  // names from clients and upstreams: shown, never obeyed by the terminal
  const s = printable(raw);
  return s.length > width ? `${s.slice(0, width - 1)}…` : s;
}

/** Cells padded to their widths and joined by two spaces; the last cell is clipped to what is left. */
export function row(cells: readonly string[], widths: readonly number[], total: number): string {
  let out = '';
  for (let i = 0; i < cells.length; i++) {
    const sep = i === 0 ? '' : '  ';
    const w = i === cells.length - 1 ? Math.max(0, total - out.length - sep.length) : widths[i]!;
    out += sep + clip(cells[i]!, w).padEnd(i === cells.length - 1 ? 0 : w);
  }
  return clip(out, total);
}

/** Column widths for `rows` (header included), each at most its cap. */
export function widthsOf(rows: ReadonlyArray<readonly string[]>, caps: readonly number[]): number[] {
  return caps.map((cap, i) => Math.min(cap, Math.max(0, ...rows.map((r) => (r[i] ?? '').length))));
}
