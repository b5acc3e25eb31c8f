/**
 * The Log footer's last line, always exactly one so the table above never loses a row to it: the
 * 5-minute figures; the last good figures marked stale (with the time they stand from) while a
 * poll fails; or, before any figures, why there are none, cut with … to the line.
 */
import { textWidth } from '../../util/text-width.js';
import { wrapLines } from '../wrap-lines.js';
import { formatRecentStats, type RecentStats } from './recent-stats.js';

/** What the footer knows of the last 5 minutes; undefined while the first summary loads. */
export type SummaryState = { figures: RecentStats; staleSince?: string } | { unavailable: string } | undefined;

/** The line in parts: `failed` ones are shown as an error (the words say it too, for NO_COLOR). */
export type SummaryLine = Array<{ text: string; failed: boolean }>;

const SEPARATOR = ' · ';

export function summaryLine(state: SummaryState, width: number): SummaryLine {
  if (state === undefined) return [{ text: 'last 5 min: …', failed: false }];
  if ('unavailable' in state) return [{ text: wrapLines(`stats unavailable: ${state.unavailable}`, width, 1)[0]!, failed: true }];
  if (state.staleSince === undefined) return [{ text: formatRecentStats(state.figures, width), failed: false }];
  // The mark goes first and keeps its time before the figures keep their words: figures that look
  // current but are not mislead more than shorter figures do.
  const { figures } = state;
  const marked = (mark: string) => ({ mark, figures: formatRecentStats(figures, width - textWidth(mark + SEPARATOR)) });
  const forms = [`stale ${state.staleSince}`, 'stale'].map(marked);
  const form = forms.find((f) => textWidth(f.mark + SEPARATOR + f.figures) <= width) ?? forms.at(-1)!;
  return [
    { text: form.mark, failed: true },
    { text: SEPARATOR + form.figures, failed: false },
  ];
}
