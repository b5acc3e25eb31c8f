/**
 * How a key just created is shown once, at a width and height. The key is never cut: the user
 * must copy it, so it wraps, and where it cannot go on one line inside a box the box goes (its
 * border would be copied with each line, and its padding take cells from the key). Then, most
 * needed first: the warning that it is not shown again, what copying it (c) did, the keys (c to
 * copy it whole, as a mouse copy of a wrapped key carries its line breaks; Enter), and the title.
 */
import { textWidth } from '../util/text-width.js';
import { fullestFitting } from './fit-wording.js';
import { wrapLines } from './wrap-lines.js';

export interface NewKeyLayout {
  /** Inside a rounded box (a border and a cell of padding each side). */
  boxed: boolean;
  title?: string;
  key: string[];
  warning: string[];
  /** What the last copy did (c). */
  copied: string[];
  done?: string;
}

const WARNING = 'Copy it now: it is not shown again.';
const DONE = ['c copies it to the clipboard · Enter when done.', 'c copy · Enter when done.', 'c copy · Enter: done'];
/** Border and padding each side take this many cells of a line, and the border a row above and below. */
const BOX_CELLS = 4;
const BOX_ROWS = 2;

export function newKeyLayout(created: { name: string; id: string; key: string }, width: number, height: number, copyNote?: string): NewKeyLayout {
  const boxed = textWidth(created.key) <= width - BOX_CELLS;
  const inner = boxed ? width - BOX_CELLS : width;
  // every line of the key and of its warning, whatever the room: a key cut short is no key
  const key = wrapLines(created.key, inner, Infinity);
  const warning = wrapLines(WARNING, inner, Infinity);
  let rest = height - (boxed ? BOX_ROWS : 0) - key.length - warning.length;
  const copied = copyNote && rest > 0 ? wrapLines(copyNote, inner, rest) : [];
  rest -= copied.length;
  const done = rest > 0 ? fullestFitting(DONE, inner) : undefined;
  if (done) rest--;
  const title = rest > 0 ? fullestFitting([`Key "${created.name}" created (${created.id}).`, `Key "${created.name}" created.`, 'Key created.'], inner) : undefined;
  return { boxed, title, key, warning, copied, done };
}
