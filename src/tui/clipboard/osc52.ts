/**
 * The bytes that put text on the clipboard through the terminal: OSC 52 (`ESC ] 52 ; c ; <base64>
 * BEL`, "c" the clipboard; BEL ends it, as more terminals take it than ST). Inside tmux it goes
 * twice: as it is, which tmux takes into a paste buffer and passes to the terminal outside when
 * its set-clipboard is on (its default, external, drops it); and wrapped in tmux's DCS passthrough
 * (`ESC P tmux; … ESC \`, each ESC in it doubled), which tmux before 3.3 hands on by default and
 * 3.3 and later with allow-passthrough on. A terminal that gets both sets the same text twice.
 */
const ESC = '\x1b';
const BEL = '\x07';

export function osc52(text: string): string {
  return `${ESC}]52;c;${Buffer.from(text, 'utf8').toString('base64')}${BEL}`;
}

export function tmuxPassthrough(sequence: string): string {
  return `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ESC}\\`;
}

/** What to write to the terminal to copy `text`; `inTmux`: TMUX is set in the environment. */
export function clipboardBytes(text: string, inTmux: boolean): string {
  const sequence = osc52(text);
  return inTmux ? sequence + tmuxPassthrough(sequence) : sequence;
}
