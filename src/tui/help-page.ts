/**
 * The help's rows that fit the screen, and its last line: how to close it, or, when the rows do
 * not all fit, which rows show (so the reader knows there is more) and how to scroll to the rest.
 */
import { fullestFitting } from './fit-wording.js';
import type { HelpRow } from './help-lines.js';

export interface HelpPage {
  rows: HelpRow[];
  /** The first row shown, kept within the rows there are. */
  offset: number;
  /** How many rows a scroll key moves through: 0 when all fit (then every key closes). */
  scrollable: number;
  /** Rows shown at a time (PgUp/PgDn move by this). */
  page: number;
}

export function helpPage(all: readonly HelpRow[], offset: number, height: number, width: number): HelpPage {
  if (all.length + 1 <= height) {
    return { rows: [...all, { kind: 'note', text: fullestFitting(['Press any key to close.', 'Any key closes.'], width) }], offset: 0, scrollable: 0, page: all.length };
  }
  const page = Math.max(1, height - 1);
  const last = Math.max(0, all.length - page);
  const first = Math.max(0, Math.min(offset, last));
  const shown = all.slice(first, first + page);
  const from = first + 1;
  const to = first + shown.length;
  const of = all.length;
  const note = fullestFitting(
    [
      `rows ${from}–${to} of ${of} · ↑↓ PgUp PgDn scroll · any other key closes`,
      `${from}–${to} of ${of} · ↑↓ PgUp PgDn scroll · other keys close`,
      `${from}–${to} of ${of} · ↑↓ scroll · other keys close`,
      `${from}–${to} of ${of} · ↑↓ scroll · Esc closes`,
      `${from}–${to}/${of} ↑↓ · Esc closes`,
      `${from}–${to}/${of} ↑↓ · Esc`,
      `${from}–${to}/${of}`,
    ],
    width,
  );
  return { rows: [...shown, { kind: 'note', text: note }], offset: first, scrollable: last + 1, page };
}
