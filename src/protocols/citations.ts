/**
 * Where a citation falls in an answer's whole text. A hub citation names a stretch of its text
 * part, or all of it; clients want offsets into the text they are given, which joins parts.
 */
import type { UrlCitation } from './hub.js';

/**
 * The citation's stretch, for a part that runs from `start` to `end` of the whole text; all of the
 * part when it names none or one that does not fit in it (a streamed citation's offsets are taken
 * before its text is whole).
 */
export function citedStretch(citation: UrlCitation, start: number, end: number): { start: number; end: number } {
  const { start: from, end: to } = citation;
  if (from === undefined || to === undefined || from < 0 || from > to || start + to > end) return { start, end };
  return { start: start + from, end: start + to };
}
