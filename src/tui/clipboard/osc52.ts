/**
 * The bytes that put text on the clipboard through the terminal: OSC 52 (`ESC ] 52 ; c ; <base64>
 * BEL`, "c" the clipboard; BEL ends it, as more terminals take it than ST). Inside tmux it goes
 * twice: as it is, which tmux takes into a paste buffer and passes to the terminal outside when
 * its set-clipboard is on (its default, external, drops it); and wrapped in tmux's DCS passthrough
 * (`ESC P tmux; … ESC \`, each ESC in it doubled), which tmux before 3.3 hands on by default and
 * 3.3 and later with allow-passthrough on. Inside GNU screen, which drops every OSC 52, it goes
 * as it is too (for a terminal started from a shell in screen, which inherits its STY) and
 * through screen's DCS passthrough. A terminal that gets both sets the same text twice.
 */
const ESC = '\x1b';
const BEL = '\x07';

/** What the TUI's bytes go through first: tmux (TMUX set), GNU screen (STY set), or nothing. */
export type Multiplexer = 'tmux' | 'screen' | undefined;

/**
 * screen keeps a DCS string's content in its string buffer (256 bytes in 4.0, 512 in 4.2.0, 768
 * since 4.2.1, one byte less of content) and prints what goes past it as text; each piece fits
 * the smallest. The sequence is ASCII, so no piece ends inside a character.
 */
export const SCREEN_PIECE = 252;

export function osc52(text: string): string {
  return `${ESC}]52;c;${Buffer.from(text, 'utf8').toString('base64')}${BEL}`;
}

export function tmuxPassthrough(sequence: string): string {
  return `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ESC}\\`;
}

/**
 * screen writes a DCS string's content to the terminal as it is (an ESC in it not followed by `\`
 * stays one ESC): the sequence goes in pieces, each in a DCS of its own (`ESC P … ESC \`), which
 * reach the terminal back to back as the one sequence.
 */
export function screenPassthrough(sequence: string): string {
  let bytes = '';
  for (let at = 0; at < sequence.length; at += SCREEN_PIECE) bytes += `${ESC}P${sequence.slice(at, at + SCREEN_PIECE)}${ESC}\\`;
  return bytes;
}

/** What to write to the terminal to copy `text`. */
export function clipboardBytes(text: string, through: Multiplexer): string {
  const sequence = osc52(text);
  if (through === 'tmux') return sequence + tmuxPassthrough(sequence);
  if (through === 'screen') return sequence + screenPassthrough(sequence);
  return sequence;
}
