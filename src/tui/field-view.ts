/**
 * The part of a field's value its line shows, around the cursor. The cursor is a cell of its own
 * (inverse video): the grapheme it is on, or a blank after the end. A value longer than its room
 * scrolls, as little as keeps the cursor in view, `…` standing for what is left off on either
 * side; so moving back through a long URL walks the cursor across the view before the view moves.
 */
import { graphemeWidth, graphemes } from '../util/text-width.js';

export interface FieldView {
  /** What comes before the cursor's cell, `…` first where the value's start is left off. */
  before: string;
  /** The cursor's cell: the grapheme it is on, or a space at the end. */
  at: string;
  /** What comes after it, `…` last where the value's end is left off. */
  after: string;
  /** The first grapheme shown: the next view starts from it (pass it back as `previousStart`). */
  start: number;
}

/**
 * `value` with the cursor at offset `cursor` (text-edit.ts), in `room` cells; `previousStart`: the
 * last view's `start` (Infinity for a new field: its end is shown).
 */
export function fieldView(value: string, cursor: number, room: number, previousStart: number): FieldView {
  const before = graphemes(value.slice(0, cursor));
  // the end's blank cell is where a cursor after the last grapheme sits
  const cells = [...before, ...graphemes(value.slice(cursor)), ' '];
  const widths = cells.map(graphemeWidth);
  const n = cells.length;
  const c = before.length;
  // cells graphemes [from, to) take with the …s that stand for what is left out on each side
  const span = (from: number, to: number) => {
    let w = from > 0 ? 1 : 0;
    for (let i = from; i < to; i++) w += widths[i]!;
    return w + (to < n ? 1 : 0);
  };
  let start = Math.max(0, Math.min(previousStart, c));
  // the cursor off the view's right edge: move the view on until it shows
  while (start < c && span(start, c + 1) > room) start++;
  // room left after the end (the value got shorter): take back what it left off at the start
  while (start > 0 && span(start - 1, n) <= room) start--;
  let to = c + 1;
  while (to < n && span(start, to + 1) <= room) to++;
  return {
    before: (start > 0 ? '…' : '') + cells.slice(start, c).join(''),
    at: cells[c]!,
    after: cells.slice(c + 1, to).join('') + (to < n ? '…' : ''),
    start,
  };
}
