/**
 * Finding a request's stop sequences in answer text, for targets that cannot take them
 * (protocols/stops-left-out.ts). The model stops at the first sequence it completes: the match
 * that ends first wins (of two ending together, the longer, which began first), and the answer is
 * the text before it.
 */
import type { TokenLogprob } from '../protocols/hub.js';

export interface StopMatch {
  /** Where the stop sequence begins: the answer's text is what comes before. */
  at: number;
  stop: string;
}

/** The stop sequence `text` completes first, or undefined when it holds none. */
export function firstStop(text: string, stops: readonly string[]): StopMatch | undefined {
  let best: StopMatch | undefined;
  let bestEnd = Infinity;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at === -1) continue;
    const end = at + stop.length;
    if (end < bestEnd || (end === bestEnd && at < best!.at)) {
      best = { at, stop };
      bestEnd = end;
    }
  }
  return best;
}

/**
 * How many characters at the end of `text` may be the start of a stop sequence that the text to
 * come completes: the longest end of it that begins one (at most the longest stop's length − 1).
 */
export function startOfStopAtEnd(text: string, stops: readonly string[]): number {
  let longest = 0;
  for (const stop of stops) {
    for (let n = Math.min(stop.length - 1, text.length); n > longest; n--) {
      if (text.endsWith(stop.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}

/**
 * The tokens of a text that begin before `at` (their texts, joined, are that text): those of the
 * text an answer keeps when it is cut there; undefined when none.
 */
export function tokensBefore(tokens: readonly TokenLogprob[], at: number): TokenLogprob[] | undefined {
  let length = 0;
  const kept = tokens.filter((t) => {
    const starts = length;
    length += t.token.length;
    return starts < at;
  });
  return kept.length > 0 ? kept : undefined;
}
