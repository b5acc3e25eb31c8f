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
