/** Of a few wordings of one thing, fullest first: the first that fits whole, else the last cut with …. */
import { textWidth } from '../util/text-width.js';
import { wrapLines } from './wrap-lines.js';

export function fullestFitting(wordings: readonly string[], width: number): string {
  return wordings.find((w) => textWidth(w) <= width) ?? wrapLines(wordings.at(-1)!, width, 1)[0]!;
}
