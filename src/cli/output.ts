/** Small text-output helpers: aligned tables and short dates. */
import { printable } from '../util/printable.js';
import { padToWidth, textWidth } from '../util/text-width.js';

export function table(headers: readonly string[], rawRows: ReadonlyArray<readonly string[]>): string {
  // cells carry names from clients and upstreams: shown, never obeyed by the terminal
  const rows = rawRows.map((r) => r.map(printable));
  // by terminal cells: a CJK or emoji name takes two a character
  const widths = headers.map((h, i) => Math.max(textWidth(h), ...rows.map((r) => textWidth(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : padToWidth(c, widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** "2026-11-22 14:03" in local time; "never" for null. */
export function shortDate(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function duration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${s}s`;
  return `${s}s`;
}
