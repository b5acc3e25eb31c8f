/**
 * Where a citation falls in an answer's whole text. A hub citation names a stretch of its text
 * part, or all of it; clients want offsets into the text they are given, which joins parts.
 */
import type { UrlCitation } from './hub.js';

/** The citation's stretch, for a part that runs from `start` to `end` of the whole text. */
export function citedStretch(citation: UrlCitation, start: number, end: number): { start: number; end: number } {
  return {
    start: citation.start !== undefined ? start + citation.start : start,
    end: citation.end !== undefined ? start + citation.end : end,
  };
}
