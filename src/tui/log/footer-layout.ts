/**
 * The Log footer's first line and the lines under it: live or paused, the counts, an active
 * filter beside them when it fits whole (else wrapped on lines of its own below, without its
 * label if it is still too long, the last line ending in … past them), a feed error beside them
 * when it fits whole (else wrapped below: it is a message to read, not a status to glance at),
 * then the key hints that still fit; last the 5-minute summary on one line (log/summary-line.ts).
 */
import { textWidth } from '../../util/text-width.js';
import { wrapLines } from '../wrap-lines.js';
import { fittingHints } from '../key-hints.js';
import { LOG_HINTS } from './footer-hints.js';
import { summaryLine, type SummaryLine, type SummaryState } from './summary-line.js';

export interface FooterInput {
  paused: boolean;
  /** Requests held back while paused. */
  held: number;
  /** `3` or `1 of 3`. */
  counts: string;
  /** From describeFilter, in full and short (without a filter both undefined). */
  filter?: { full: string; short: string };
  error?: string;
  /** The 5-minute figures, stale or not; or why there are none. */
  summary: SummaryState;
}

export interface FooterLayout {
  /** `LIVE`, or ` PAUSED +2 new ` (shown inverse). */
  mode: string;
  /** ` 3 requests` */
  counts: string;
  /** ` · filter: …` on the first line. */
  filterBeside?: string;
  /** ` · <error>`, when it fits beside whole. */
  error?: string;
  hints: string;
  /** The filter's own lines, when it does not fit beside. */
  below: string[];
  /** The feed error's lines, when it does not fit beside. */
  errorBelow: string[];
  /** The summary's one line. */
  summary: SummaryLine;
}

/** Lines the footer takes: the first, then those below it. */
export const footerLines = (l: FooterLayout) => 1 + l.below.length + l.errorBelow.length + 1;

/** `maxMessageLines`: the lines a feed error may take (… past them). */
export function logFooterLayout(input: FooterInput, width: number, maxFilterLines: number, maxMessageLines: number): FooterLayout {
  const mode = input.paused ? ` PAUSED${input.held ? ` +${input.held} new` : ''} ` : 'LIVE';
  const counts = ` ${input.counts} requests`;
  const beside = input.error ? ` · ${input.error}` : undefined;
  const error = beside !== undefined && textWidth(mode + counts + beside) <= width ? beside : undefined;
  const errorBelow = input.error && error === undefined ? wrapLines(input.error, width, maxMessageLines) : [];
  const summary = summaryLine(input.summary, width);
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
  return { mode, counts, filterBeside, error, hints, below, errorBelow, summary };
}
