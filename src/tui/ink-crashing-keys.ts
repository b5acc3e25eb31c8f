/**
 * Key sequences that crash Ink 6's useInput (ink#901, fixed only in Ink 7, which needs Node 22):
 * a legacy CSI key with the Ctrl bit in its modifier whose code Ink has no name for (xterm's
 * Ctrl-F1 `ESC[1;5P`, Ctrl-F13 `ESC[25;5~`…). Ink's parseKeypress then returns ctrl with no name
 * and useInput calls `undefined.startsWith`, which kills the TUI. This module removes exactly
 * those sequences from the bytes read from the terminal. The codes Ink names and the shapes of
 * key sequence it parses are facts read off Ink 6.8's build/parse-keypress.js, written here in our
 * own terms; test/tui/ink-crashing-keys.test.ts checks every legacy CSI shape against Ink's own
 * parser, so a drift between the two fails there.
 */

/** The codes Ink's `keyName` table names (the keys of that table). */
const NAMED_CODES: ReadonlySet<string> = new Set([
  'OP', 'OQ', 'OR', 'OS', '[11~', '[12~', '[13~', '[14~', '[[A', '[[B', '[[C', '[[D', '[[E',
  '[15~', '[17~', '[18~', '[19~', '[20~', '[21~', '[23~', '[24~',
  '[A', '[B', '[C', '[D', '[E', '[F', '[H', 'OA', 'OB', 'OC', 'OD', 'OE', 'OF', 'OH',
  '[1~', '[2~', '[3~', '[4~', '[5~', '[6~', '[[5~', '[[6~', '[7~', '[8~',
  '[a', '[b', '[c', '[d', '[e', '[2$', '[3$', '[5$', '[6$', '[7$', '[8$',
  'Oa', 'Ob', 'Oc', 'Od', 'Oe', '[2^', '[3^', '[5^', '[6^', '[7^', '[8^', '[Z',
]);

/**
 * A function-key sequence as Ink reads it: one or more ESC, a prefix (`[[`, `[`, `O` or `N`), then
 * either a number, an optional `;modifier` and one of `~ ^ $`, or an optional `1;`, an optional
 * modifier number and a letter. Groups: prefix, number, modifier, ending; modifier, letter.
 */
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const FN_KEY_RE = /^\x1b+(\[\[|\[|O|N)(?:(\d+)(?:;(\d+))?([~^$])|(?:1;)?(\d+)?([A-Za-z]))/;
/** A kitty keyboard-protocol key (CSI … u): Ink parses it first, and it never crashes. */
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const KITTY_KEY_RE = /^\x1b\[\d+(?:;\d+(?::\d+)?(?:;[\d:]+)?)?u$/;

/**
 * One CSI sequence as Ink's input parser cuts it (ESC or ESC ESC, `[`, an optional second `[`,
 * parameter and intermediate bytes, a final byte). SS3 (`ESC O x`) is left out: Ink cuts it after
 * one byte, so a modifier never reaches the parser with it and no SS3 key crashes.
 */
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const CSI_RE = /\x1b\x1b?\[\[?[\x20-\x3f]*[\x40-\x7e]/g;

/** True when Ink 6's useInput would throw on this one key sequence. */
export function crashesInk(sequence: string): boolean {
  if (KITTY_KEY_RE.test(sequence)) return false;
  const parts = FN_KEY_RE.exec(sequence);
  if (!parts) return false;
  const code = [parts[1], parts[2], parts[4], parts[6]].filter(Boolean).join('');
  if (NAMED_CODES.has(code)) return false;
  // Ink's own arithmetic: the modifier parameter minus one, Ctrl is bit 4 (a "0" gives -1: Ctrl).
  const modifier = Number(parts[3] || parts[5] || 1) - 1;
  return (modifier & 4) !== 0;
}

/** The text read from the terminal without the key sequences that would crash Ink. */
export function dropInkCrashingKeys(chunk: string): string {
  // Most reads hold no escape at all: typed text passes untouched.
  if (!chunk.includes('\x1b[')) return chunk;
  return chunk.replace(CSI_RE, (sequence) => (crashesInk(sequence) ? '' : sequence));
}
