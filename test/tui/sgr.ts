/** Colour in terminal output: any SGR sequence that sets a foreground or background colour. */

const COLOUR_CODES = (n: number) => (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107);

/** The colour-setting SGR sequences in `text` (resets to the default colour, 39/49, do not count). */
export function colourSequences(text: string): string[] {
  // eslint-disable-next-line no-control-regex -- matching escape sequences is the point
  const sgr = /\x1b\[([0-9;]*)m/g;
  const found: string[] = [];
  for (const m of text.matchAll(sgr)) {
    const params = m[1]!.split(';').filter(Boolean).map(Number);
    for (let i = 0; i < params.length; i++) {
      const p = params[i]!;
      if (COLOUR_CODES(p)) {
        found.push(m[0]);
        break;
      }
    }
  }
  return found;
}
