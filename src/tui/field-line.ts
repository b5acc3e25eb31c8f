/**
 * A text field's one line at a width: the fullest wording of its label that leaves the value room
 * (the field scrolls its value in that room around its cursor: field-view.ts), then as much of the
 * value as fits, its end kept (what was typed last). Cut from the start, a narrow terminal showed
 * "…long-key-name-here" with no label at all. An answer given keeps only the room it needs.
 */
import { clipStartToWidth, textWidth } from '../util/text-width.js';
import { fullestFitting } from './fit-wording.js';

/** Lines a field's hint wraps onto at most: it is read (an example, what Enter does), but the list above keeps its room. */
export const HINT_LINES = 2;

/**
 * Rows a field and its hint get on a screen `height` rows tall whose list keeps `above` rows over
 * it: the field and HINT_LINES while that leaves them, the field and one line at least.
 */
export const fieldRows = (height: number, above: number) => Math.max(2, Math.min(1 + HINT_LINES, height - above));

/** Where a field under a screen's list goes, and what of the screen stays over it. */
export interface FieldRoom {
  /** Rows the field gets: its line, its refusal's reason, its hint. */
  rows: number;
  /** Whether the list (its header and a row at least) stays over it. */
  list: boolean;
  /** Whether the screen's heading does. */
  heading: boolean;
}

/** Rows over a field that a table keeps while it can: the screen's heading, the table's header and a row. */
export const TABLE_ABOVE = 3;

/**
 * A field under a list on a screen `height` rows tall, its refusal's reason `reasonRows` long:
 * as fieldRows with the reason's rows where the `above` rows (the heading and what the list keeps:
 * a table's header and a row, or only a row) leave it what it needs (its line, a line of the
 * reason, the way out on the hint's line); else the list gives up its rows, then the heading (the
 * tab bar still names the screen). In a short terminal the reason took the hint's row, and at 7
 * rows the list pushed the field's own line out of view.
 */
export function fieldUnderList(height: number, reasonRows: number, above = TABLE_ABOVE): FieldRoom {
  const needs = reasonRows > 0 ? 3 : 2;
  if (height - above >= needs) return { rows: Math.min(fieldRows(height, above) + reasonRows, height - above), list: true, heading: true };
  const wants = 1 + reasonRows + HINT_LINES;
  if (height - 1 >= needs) return { rows: Math.min(wants, height - 1), list: false, heading: true };
  return { rows: Math.max(1, Math.min(wants, height)), list: false, heading: false };
}

/** The cells the value keeps beside the label at least: a third of the line, at most 12. */
const valueRoom = (width: number) => Math.min(12, Math.ceil(width / 3));

export interface FieldLine {
  label: string;
  /** The value's end that fits, `…` before it where its start is left off. */
  value: string;
}

/** `value`: the text to show (already the hidden count for a credential); `cursor`: cells kept after it. */
export function fieldLine(label: string | readonly string[], value: string, width: number, cursor = 1): FieldLine {
  const wordings = typeof label === 'string' ? [label] : label;
  const shown = fullestFitting(wordings, Math.max(1, width - 1 - cursor - valueRoom(width)));
  return { label: shown, value: clipStartToWidth(value, width - textWidth(shown) - 1 - cursor) };
}

/**
 * An answer already given, on its line: the fullest wording of the label that fits beside the whole
 * answer, as nothing more will be typed there; where none does, as a field's line (the label's
 * wording that leaves the answer a third of the line, the answer's end in it).
 */
export function answerLine(label: string | readonly string[], answer: string, width: number): FieldLine {
  const wordings = typeof label === 'string' ? [label] : label;
  const whole = wordings.find((w) => textWidth(w) + 1 + textWidth(answer) <= width);
  return whole === undefined ? fieldLine(wordings, answer, width, 0) : { label: whole, value: answer };
}
