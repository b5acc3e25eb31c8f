/**
 * The help's rows, wrapped to the terminal by us: Ink's own wrap of a key-and-description line
 * broke it at the left edge and overlapped the rows after it. Keys stay in a column beside their
 * descriptions when a description keeps 16 cells; narrower, each key has its own row and its
 * description follows indented. help-page.ts shows the rows a terminal has room for.
 */
import { wrapLines } from './wrap-lines.js';

export interface HelpRow {
  kind: 'heading' | 'key' | 'text' | 'note';
  /** On a key row the key (shown bold), on a description's next rows its indent; `text` follows. */
  key?: string;
  text: string;
}

export type HelpEntry = string | readonly [key: string, what: string];

const INDENT = 2;
const GAP = 2;
const NARROWEST_DESCRIPTION = 16;

export function helpRows(entries: readonly HelpEntry[], width: number): HelpRow[] {
  const keyWidth = Math.max(0, ...entries.map((e) => (typeof e === 'string' ? 0 : e[0].length)));
  const besideWidth = width - INDENT - keyWidth - GAP;
  const beside = besideWidth >= NARROWEST_DESCRIPTION;
  const out: HelpRow[] = [];
  for (const e of entries) {
    if (typeof e === 'string') {
      out.push({ kind: 'heading', text: wrapLines(e, width, 1)[0]! });
      continue;
    }
    const [key, what] = e;
    if (beside) {
      const pad = ' '.repeat(INDENT + keyWidth + GAP);
      wrapLines(what, besideWidth, Infinity).forEach((line, i) =>
        out.push(i === 0 ? { kind: 'key', key: `${' '.repeat(INDENT)}${key.padEnd(keyWidth)}`, text: `${' '.repeat(GAP)}${line}` } : { kind: 'text', key: pad, text: line }),
      );
    } else {
      for (const line of wrapLines(key, width - INDENT, Infinity)) out.push({ kind: 'key', key: `${' '.repeat(INDENT)}${line}`, text: '' });
      for (const line of wrapLines(what, width - 2 * INDENT, Infinity)) out.push({ kind: 'text', text: `${' '.repeat(2 * INDENT)}${line}` });
    }
  }
  return out;
}
