/**
 * What the providers screen asks before it disconnects or removes an upstream: also which model
 * groups still route to it (they would fail from then on), so the answer can be no. Until the
 * groups are known the question says it is checking them and takes no yes: a quick y must not
 * remove what the answer could have kept. A list too long for the footer becomes a count, keeping
 * the answer on screen.
 */
import { groupUsesText, type GroupUse } from '../../config/group-uses.js';
import { printable } from '../../util/printable.js';
import { wrapLines } from '../wrap-lines.js';
import type { UpstreamRow } from './rows.js';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The most lines the question may take in the footer. */
export const REMOVAL_QUESTION_LINES = 4;

/** The model groups that route to the upstream: being loaded, not loadable, or known. */
export type GroupsCheck = 'checking' | 'unknown' | readonly GroupUse[];

/** What Confirm shows instead of [y/N] while the groups are being loaded. */
export const CHECKING = 'checking groups…';

export interface RemovalQuestion {
  text: string;
  /** Set while y is refused: Confirm shows it in place of [y/N]. */
  waiting?: string;
  /** Terminal lines it takes at the screen's width, the answer included. */
  lines: number;
}

export function removalQuestion(row: UpstreamRow, groups: GroupsCheck, width: number): RemovalQuestion {
  const base =
    row.kind === 'provider' ? `Disconnect ${row.name} (remove its stored API key)?` : row.kind === 'endpoint' ? `Remove endpoint ${row.name} and its stored credential?` : `Remove local server ${row.name}?`;
  const waiting = groups === 'checking' ? CHECKING : undefined;
  // Confirm's own suffix, counted when wrapping
  const answer = waiting ? ` [${waiting}]` : ' [y/N]';
  const fits = (text: string) => wrapLines(text + answer, width, REMOVAL_QUESTION_LINES + 1).length <= REMOVAL_QUESTION_LINES;
  let text = base;
  if (groups === 'unknown') text = `${base} (The model groups routing to it could not be checked.)`;
  else if (groups !== 'checking' && groups.length) {
    // names come from config.json, which a hand edit may have filled with anything
    const listed = `${base} ${capitalised(printable(groupUsesText(groups)))}; those targets would then fail.`;
    const counted = `${base} ${groups.length === 1 ? '1 model group name still routes' : `${groups.length} model group names still route`} to it (see the Groups screen); those targets would then fail.`;
    text = fits(listed) ? listed : counted;
  }
  const lines = Math.min(REMOVAL_QUESTION_LINES, wrapLines(text + answer, width, REMOVAL_QUESTION_LINES).length);
  return waiting ? { text, waiting, lines } : { text, lines };
}
