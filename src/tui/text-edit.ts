/**
 * Editing a one-line value at a cursor, as a shell line does: the cursor is an offset into the
 * value that moves and erases a grapheme at a time (an emoji, a letter with its accent: never half
 * a surrogate pair). Pure, so each key's effect is tested without a terminal.
 */
import { graphemes } from '../util/text-width.js';

export interface Edit {
  value: string;
  /** Offset into `value` (UTF-16 units), at a grapheme's start or the end. */
  cursor: number;
}

export const atEnd = (value: string): Edit => ({ value, cursor: value.length });

/** Where the graphemes of `text` start, and its end. */
function boundaries(text: string): number[] {
  const out = [0];
  for (const g of graphemes(text)) out.push(out[out.length - 1]! + g.length);
  return out;
}

const previousBoundary = (e: Edit) => boundaries(e.value).filter((b) => b < e.cursor).pop() ?? 0;
const nextBoundary = (e: Edit) => boundaries(e.value).find((b) => b > e.cursor) ?? e.value.length;

export const insert = (e: Edit, text: string): Edit => ({
  value: e.value.slice(0, e.cursor) + text + e.value.slice(e.cursor),
  cursor: e.cursor + text.length,
});

export const left = (e: Edit): Edit => ({ ...e, cursor: previousBoundary(e) });
export const right = (e: Edit): Edit => ({ ...e, cursor: nextBoundary(e) });
export const home = (e: Edit): Edit => ({ ...e, cursor: 0 });
export const end = (e: Edit): Edit => atEnd(e.value);

/** Backspace: the grapheme before the cursor. */
export function eraseBefore(e: Edit): Edit {
  const from = previousBoundary(e);
  return { value: e.value.slice(0, from) + e.value.slice(e.cursor), cursor: from };
}

/** Delete: the grapheme at the cursor. */
export const eraseAt = (e: Edit): Edit => ({ value: e.value.slice(0, e.cursor) + e.value.slice(nextBoundary(e)), cursor: e.cursor });

/** Ctrl-W: the spaces before the cursor, then the word before them (a shell's word: up to a space). */
export function eraseWordBefore(e: Edit): Edit {
  const before = e.value.slice(0, e.cursor);
  const from = before.replace(/\S*\s*$/u, '').length;
  return { value: e.value.slice(0, from) + e.value.slice(e.cursor), cursor: from };
}
