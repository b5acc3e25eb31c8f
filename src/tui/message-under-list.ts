/**
 * Rows the message under a list gets (the outcome of the last action, components/Message.tsx) on a
 * screen `height` rows tall whose heading and list keep `above` rows over it (a table: the heading,
 * its header and a row; a list: the heading and a row). With none shown, the rows kept for one
 * (`reserved`) while they are left. A message shown keeps its lines, the heading giving its row
 * where they need it (the tab bar still names the screen), and is cut to the rows left past that,
 * one at least. At 7 rows the heading, a table and a two-line message were a row more than the
 * screen: Ink drew the table's header and row on one line, one over the other, and cut the message.
 */
import { flashLines, messageLines, type Flash } from './components/Message.js';

export interface MessageRoom {
  rows: number;
  heading: boolean;
}

/** `shown`: the lines of the message on screen (undefined: none is). */
export function roomUnderList(height: number, shown: number | undefined, reserved: number, above: number): MessageRoom {
  const room = Math.max(0, height - above);
  if (shown === undefined || shown <= room) return { rows: Math.min(reserved, room), heading: true };
  if (shown <= room + 1) return { rows: shown, heading: false };
  return { rows: Math.max(1, room + 1), heading: false };
}

export interface ListMessage extends MessageRoom {
  /** What the message says: the last action's outcome, else why the list did not load. */
  flash: Flash | undefined;
  /** Rows a screen keeps for a message (messageLines), whatever its footer holds now. */
  reserved: number;
}

export interface ListMessageInput {
  flash: Flash | undefined;
  /** Why the list did not load, if it did not. */
  loadError: string | undefined;
  width: number;
  height: number;
  above: number;
  /** Whether the list has the footer (no field, question or wizard): only then is a message under it. */
  listed: boolean;
}

/**
 * The message under a list and the rows it takes. A notice and its outcome (Flash.notice) take the
 * lines they need, the list keeping what is `above` it but the heading.
 */
export function messageUnderList({ flash, loadError, width, height, above, listed }: ListMessageInput): ListMessage {
  const shown: Flash | undefined = flash ?? (loadError ? { kind: 'error', text: loadError } : undefined);
  const reserved = messageLines(width, height);
  if (!listed) return { flash: shown, reserved, rows: reserved, heading: true };
  const noticeLines = shown?.notice ? flashLines(shown, width, Math.max(reserved, height - above + 1)) : 0;
  const lines = shown && Math.max(noticeLines, flashLines(shown, width, reserved));
  return { flash: shown, reserved, ...roomUnderList(height, lines, Math.max(reserved, noticeLines), above) };
}
