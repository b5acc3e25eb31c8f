/**
 * What the providers screen asks before it disconnects or removes an upstream: also which model
 * groups still route to it (they would fail from then on), so the answer can be no. A list too long for the footer becomes a count, keeping [y/N] on screen.
 */
import { groupUsesText, type GroupUse } from '../../config/group-uses.js';
import { printable } from '../../util/printable.js';
import { wrapLines } from '../wrap-lines.js';
import type { UpstreamRow } from './rows.js';

/** The most lines the question may take in the footer. */
export const REMOVAL_QUESTION_LINES = 4;

/** Confirm's own suffix, counted when wrapping. */
const ANSWER = ' [y/N]';

export interface RemovalQuestion {
  text: string;
  /** Terminal lines it takes at the screen's width, [y/N] included. */
  lines: number;
}

export function removalQuestion(row: UpstreamRow, uses: readonly GroupUse[] | undefined, width: number): RemovalQuestion {
  const base =
    row.kind === 'provider' ? `Disconnect ${row.name} (remove its stored API key)?` : row.kind === 'endpoint' ? `Remove endpoint ${row.name} and its stored credential?` : `Remove local server ${row.name}?`;
  const fits = (text: string) => wrapLines(text + ANSWER, width, REMOVAL_QUESTION_LINES + 1).length <= REMOVAL_QUESTION_LINES;
  let text = base;
  if (uses?.length) {
    // names come from config.json, which a hand edit may have filled with anything
    const listed = `${base} Model ${printable(groupUsesText(uses))}; those targets would then fail.`;
    const counted = `${base} ${uses.length === 1 ? '1 model group name still routes' : `${uses.length} model group names still route`} to it (see the Groups screen); those targets would then fail.`;
    text = fits(listed) ? listed : counted;
  }
  return { text, lines: Math.min(REMOVAL_QUESTION_LINES, wrapLines(text + ANSWER, width, REMOVAL_QUESTION_LINES).length) };
}
