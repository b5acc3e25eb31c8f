/**
 * How a wizard fits the rows it has. Most needed first: the question being asked, the reason its
 * last answer was refused (wrapped, … past its rows), the title with the way out (Esc), the
 * question's hint, then the answers so far, the latest first. A short terminal clipped the end of
 * a wizard, which is where the question and its refusal were.
 */
import { wrapLines } from './wrap-lines.js';
import { HINT_LINES } from './field-line.js';

export interface WizardRows {
  title: boolean;
  /** How many of the latest answers show. */
  answers: number;
  /** Lines the question's hint wraps onto (0: none shows). */
  hint: number;
  problem: string[];
}

/** Rows a wizard of `fields` questions wants: the title, the answers before the last question, it, its hint and a refusal. */
export const wizardWanted = (fields: number) => fields + 3;

/** Below this, the list over a wizard gives its rows up to the wizard (all but the screen's heading). */
const WIZARD_MIN = 5;

/**
 * Rows a wizard gets on a screen `height` rows tall whose list keeps `above` rows over it (the
 * heading, a table's header and a row): what it wants while that leaves it enough, else all but
 * the heading, as the list is not what is being answered.
 */
export function wizardRoom(wanted: number, height: number, above: number): number {
  const room = height - above >= Math.min(wanted, WIZARD_MIN) ? height - above : height - 1;
  return Math.max(1, Math.min(wanted, room));
}

export function wizardRows(height: number, width: number, answered: number, hint: string | undefined, problem: string | undefined): WizardRows {
  let rest = height - 1;
  const problemLines = problem && rest > 0 ? wrapLines(problem, width, rest) : [];
  rest -= problemLines.length;
  const title = rest > 0;
  if (title) rest--;
  const hintLines = hint && rest > 0 ? wrapLines(hint, width, Math.min(HINT_LINES, rest)).length : 0;
  rest -= hintLines;
  return { title, answers: Math.max(0, Math.min(answered, rest)), hint: hintLines, problem: problemLines };
}
