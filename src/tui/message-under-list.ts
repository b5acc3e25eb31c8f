/**
 * Rows the message under a list gets (the outcome of the last action, components/Message.tsx) on a
 * screen `height` rows tall whose heading and list keep `above` rows over it (a table: the heading,
 * its header and a row; a list: the heading and a row). With none shown, the rows kept for one
 * (`reserved`) while they are left. A message shown keeps its lines, the heading giving its row
 * where they need it (the tab bar still names the screen), and is cut to the rows left past that,
 * one at least. At 7 rows the heading, a table and a two-line message were a row more than the
 * screen: Ink drew the table's header and row on one line, one over the other, and cut the message.
 */
export interface MessageRoom {
  rows: number;
  heading: boolean;
}

/** `shown`: the lines of the message on screen (undefined: none is). */
export function messageUnderList(height: number, shown: number | undefined, reserved: number, above: number): MessageRoom {
  const room = Math.max(0, height - above);
  if (shown === undefined || shown <= room) return { rows: Math.min(reserved, room), heading: true };
  if (shown <= room + 1) return { rows: shown, heading: false };
  return { rows: Math.max(1, room + 1), heading: false };
}
