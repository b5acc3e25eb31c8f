/**
 * Key hints that fit whole in the cells a line has left, in order: cut at the edge they read as
 * `/…` or `space pause…`; the ones left off are still under `?`. A hint may have shorter
 * wordings, used when they let more hints show (or the first show at all).
 */
import { textWidth } from '../util/text-width.js';

/** One hint's wordings, fullest first (a plain string has just the one). */
export type Hint = string | readonly string[];

const SEP = ' · ';

const wordingAt = (hint: Hint, level: number): string => (typeof hint === 'string' ? hint : hint[Math.min(level, hint.length - 1)]!);

/** The hints in order, each at wording `level`, while they fit `cells`; `lead` goes before the first. */
function fitAt(hints: readonly Hint[], level: number, cells: number, lead: string): string[] {
  const shown: string[] = [];
  let used = 0;
  for (const hint of hints) {
    const part = (shown.length === 0 ? lead : SEP) + wordingAt(hint, level);
    used += textWidth(part);
    if (used > cells) break;
    shown.push(part);
  }
  return shown;
}

/**
 * The hints that fit `cells` whole, each joined by ` · ` and `lead` before the first (` · ` after
 * a status, '' on a line of its own): the fullest wordings among those showing the most hints.
 */
export function fittingHints(hints: readonly Hint[], cells: number, lead = SEP): string {
  const levels = Math.max(1, ...hints.map((h) => (typeof h === 'string' ? 1 : h.length)));
  let best: string[] = [];
  for (let level = 0; level < levels; level++) {
    const shown = fitAt(hints, level, cells, lead);
    if (shown.length > best.length) best = shown;
  }
  return best.join('');
}
