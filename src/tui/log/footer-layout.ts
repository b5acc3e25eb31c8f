/**
 * The Log footer's first line and the lines under it: live or paused, the counts, an active
 * filter beside them when it fits whole (else wrapped on lines of its own below, without its
 * label if it is still too long, the last line ending in … past them), a feed error, then the key
 * hints that still fit.
 */
import { textWidth } from '../../util/text-width.js';
import { wrapLines } from '../wrap-lines.js';
import { fittingHints } from '../key-hints.js';
import { LOG_HINTS } from './footer-hints.js';

export interface FooterInput {
  paused: boolean;
  /** Requests held back while paused. */
  held: number;
  /** `3` or `1 of 3`. */
  counts: string;
  /** From describeFilter, in full and short (without a filter both undefined). */
  filter?: { full: string; short: string };
  error?: string;
}

export interface FooterLayout {
  /** `LIVE`, or ` PAUSED +2 new ` (shown inverse). */
  mode: string;
  /** ` 3 requests` */
  counts: string;
  /** ` · filter: …` on the first line. */
  filterBeside?: string;
  /** ` · <error>` */
  error?: string;
  hints: string;
  /** The filter's own lines, when it does not fit beside. */
  below: string[];
}

export function logFooterLayout(input: FooterInput, width: number, maxFilterLines: number): FooterLayout {
  const mode = input.paused ? ` PAUSED${input.held ? ` +${input.held} new` : ''} ` : 'LIVE';
  const counts = ` ${input.counts} requests`;
  const error = input.error ? ` · ${input.error}` : undefined;
  const used = textWidth(mode + counts + (error ?? ''));
  let filterBeside: string | undefined;
  let below: string[] = [];
  if (input.filter !== undefined) {
    const { full, short } = input.filter;
    if (used + textWidth(` · ${full}`) <= width) filterBeside = ` · ${full}`;
    else {
      below = wrapLines(full, width, maxFilterLines);
      // without its label where that shows more of it: what was typed matters more than "filter:"
      if (below.at(-1)!.endsWith('…')) below = wrapLines(short, width, maxFilterLines);
    }
  }
  const hints = fittingHints(LOG_HINTS, width - used - textWidth(filterBeside ?? ''));
  return { mode, counts, filterBeside, error, hints, below };
}
