/**
 * A text field's cursor, key by key, through the app's real key root (Ink's parsing of each key's
 * bytes, the split of a read at its line breaks): what the line shows, the cursor's cell found by
 * its inverse video, and what Enter hands over.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

// Ink's chalk decides its colour level when it loads: the cursor's inverse video must be drawn.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

import { render } from 'ink-testing-library';
import { TextField } from '../../src/tui/components/TextField.js';
import { KeyRouterProvider, useKeyRouterRoot } from '../../src/tui/hooks/use-keys.js';
import { settleInk } from './harness.js';

const KEY = {
  left: '\x1b[D',
  right: '\x1b[C',
  home: '\x1b[H',
  end: '\x1b[F',
  homeVt: '\x1b[1~',
  endVt: '\x1b[4~',
  ctrlA: '\x01',
  ctrlE: '\x05',
  backspace: '\x7f',
  ctrlH: '\b',
  altBackspace: '\x1b\x7f',
  delete: '\x1b[3~',
  ctrlD: '\x04',
  ctrlW: '\x17',
  ctrlU: '\x15',
  enter: '\r',
  pasteStart: '\x1b[200~',
  pasteEnd: '\x1b[201~',
} as const;

function Field(props: { initial: string; width: number; hidden?: boolean; onSubmit(v: string): void; onChange?(v: string): void }) {
  const router = useKeyRouterRoot();
  return (
    <KeyRouterProvider value={router}>
      <TextField label="URL:" onCancel={() => undefined} {...props} />
    </KeyRouterProvider>
  );
}

// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const SGR = /\x1b\[[0-9;]*m/g;

/** The field's line as `before[at]after`: the cursor's cell is the inverse-video one. */
function cursorLine(frame: string): string {
  const first = frame.split('\n')[0]!;
  // eslint-disable-next-line no-control-regex -- matching escape sequences is the point
  const m = /^(.*?)\x1b\[7m(.*?)\x1b\[27m(.*)$/.exec(first);
  if (!m) throw new Error(`no inverse cell in ${JSON.stringify(first)}`);
  return `${m[1]!.replace(SGR, '')}[${m[2]!.replace(SGR, '')}]${m[3]!.replace(SGR, '').trimEnd()}`;
}

let ui: ReturnType<typeof render> | undefined;
afterEach(() => {
  ui?.unmount();
  ui?.cleanup();
  ui = undefined;
});

/** A field holding `initial`, the keys typed one read each; the line after each, and what Enter handed over. */
async function typed(initial: string, keys: string[], opts: { width?: number; hidden?: boolean } = {}) {
  const submitted: string[] = [];
  const changes: string[] = [];
  ui = render(<Field initial={initial} width={opts.width ?? 60} hidden={opts.hidden} onSubmit={(v) => submitted.push(v)} onChange={(v) => changes.push(v)} />);
  await settleInk();
  const shown: string[] = [];
  for (const k of keys) {
    ui.stdin.write(k);
    await settleInk();
    shown.push(cursorLine(ui.lastFrame() ?? ''));
  }
  ui.stdin.write(KEY.enter);
  await settleInk();
  return { shown, last: shown[shown.length - 1], submitted, changes };
}

describe('a text field’s cursor', () => {
  it('starts after the end of the value, a blank inverse cell', async () => {
    ui = render(<Field initial="abc" width={60} onSubmit={() => undefined} />);
    await settleInk();
    expect(cursorLine(ui.lastFrame() ?? '')).toBe('URL: abc[ ]');
  });

  it('Left and Right move it a character at a time, to either end and no further', async () => {
    const r = await typed('abc', [KEY.left, KEY.left, KEY.left, KEY.left, KEY.right, KEY.right, KEY.right, KEY.right]);
    expect(r.shown).toEqual(['URL: ab[c]', 'URL: a[b]c', 'URL: [a]bc', 'URL: [a]bc', 'URL: a[b]c', 'URL: ab[c]', 'URL: abc[ ]', 'URL: abc[ ]']);
    expect(r.submitted).toEqual(['abc']);
    expect(r.changes, 'moving changes nothing').toEqual([]);
  });

  it('Home and End, as each terminal sends them, and Ctrl-A, Ctrl-E', async () => {
    for (const [to, back] of [
      [KEY.home, KEY.end],
      [KEY.homeVt, KEY.endVt],
      [KEY.ctrlA, KEY.ctrlE],
    ] as const) {
      const r = await typed('abc', [to, back]);
      expect(r.shown, JSON.stringify(to)).toEqual(['URL: [a]bc', 'URL: abc[ ]']);
      ui!.unmount();
    }
  });

  it('text typed goes in at the cursor', async () => {
    const r = await typed('acd', [KEY.left, KEY.left, 'b']);
    expect(r.last).toBe('URL: ab[c]d');
    expect(r.submitted).toEqual(['abcd']);
    expect(r.changes).toEqual(['abcd']);
  });

  it('Backspace (and Ctrl-H) erase the character before the cursor; at the start, nothing', async () => {
    const r = await typed('abcd', [KEY.left, KEY.backspace, KEY.ctrlH, KEY.backspace]);
    expect(r.shown).toEqual(['URL: abc[d]', 'URL: ab[d]', 'URL: a[d]', 'URL: [d]']);
    expect(r.submitted).toEqual(['d']);
  });

  it('Delete (and Ctrl-D) erase the character at the cursor; at the end, nothing', async () => {
    const r = await typed('abcd', [KEY.home, KEY.right, KEY.delete, KEY.ctrlD, KEY.end, KEY.delete]);
    expect(r.shown).toEqual(['URL: [a]bcd', 'URL: a[b]cd', 'URL: a[c]d', 'URL: a[d]', 'URL: ad[ ]', 'URL: ad[ ]']);
    expect(r.submitted).toEqual(['ad']);
  });

  it('Ctrl-W (and Alt-Backspace) erase the word before the cursor, what follows kept', async () => {
    const r = await typed('one two three', [KEY.left, KEY.left, KEY.ctrlW, KEY.altBackspace]);
    expect(r.shown.slice(2)).toEqual(['URL: one two [e]e', 'URL: one [e]e']);
    expect(r.submitted).toEqual(['one ee']);
  });

  it('Ctrl-U clears the field, whichever the cursor', async () => {
    const r = await typed('abc', [KEY.left, KEY.ctrlU, 'x']);
    expect(r.shown.slice(1)).toEqual(['URL: [ ]', 'URL: x[ ]']);
    expect(r.submitted).toEqual(['x']);
  });

  it('a paste with a line break at a middle cursor: its text goes in there, then Enter submits the whole', async () => {
    const submitted: string[] = [];
    ui = render(<Field initial="https://.example.com" width={60} onSubmit={(v) => submitted.push(v)} />);
    await settleInk();
    ui.stdin.write(KEY.home);
    await settleInk();
    for (let i = 0; i < 'https://'.length; i++) {
      ui.stdin.write(KEY.right);
      await settleInk();
    }
    ui.stdin.write('gateway\r\n');
    await settleInk();
    expect(submitted).toEqual(['https://gateway.example.com']);
  });

  it('a bracketed paste goes in without its marks (a terminal sends them when a shell left the mode on)', async () => {
    // in one read, and each in a read of its own
    const r = await typed('ab', [KEY.left, `${KEY.pasteStart}xy${KEY.pasteEnd}`, KEY.pasteStart, 'z', KEY.pasteEnd]);
    expect(r.shown).toEqual(['URL: a[b]', 'URL: axy[b]', 'URL: axy[b]', 'URL: axyz[b]', 'URL: axyz[b]']);
    expect(r.submitted).toEqual(['axyzb']);
    expect(r.changes).toEqual(['axyb', 'axyzb']);
  });

  it('escape sequences Ink has no name for go nowhere: F13 and up, modified F-keys, focus and mouse reports', async () => {
    const unnamed = [
      '\x1b[1;2P', // xterm, VTE: Shift-F1
      '\x1b[1;3Q', // xterm: Alt-F2
      '\x1b[25~', // rxvt, Linux console: Shift-F3 (F13)
      '\x1b[11^', // rxvt: Ctrl-F1
      '\x1b[23$', // rxvt: Shift-F11
      '\x1b[23@', // rxvt: Ctrl-Shift-F11
      '\x1b\x1b[25~', // rxvt: Alt-Shift-F3 (Alt: an ESC before)
      '\x1b[27;5;9~', // xterm modifyOtherKeys: Ctrl-Tab
      '\x1b[I', // focus in
      '\x1b[O', // focus out
      '\x1b[<0;3;4M', // SGR mouse press
      '\x1bOM', // application keypad Enter
    ];
    const r = await typed('abc', [KEY.left, ...unnamed, 'x']);
    for (const [i, line] of r.shown.slice(1, -1).entries()) expect(line, JSON.stringify(unnamed[i])).toBe('URL: ab[c]');
    expect(r.submitted).toEqual(['abxc']);
    expect(r.changes).toEqual(['abxc']);
  });

  it('keys Ink names still act, modified or not, and F-keys it knows add no text', async () => {
    const r = await typed('abcd', [
      '\x1b[1;2D', // xterm: Shift-Left
      '\x1b[1;5D', // xterm: Ctrl-Left
      '\x1b[1;5C', // xterm: Ctrl-Right
      '\x1b[3;2~', // xterm: Shift-Delete
      '\x1bOP', // xterm: F1
      '\x1b[[A', // Linux console: F1
      '\x1b[11~', // rxvt: F1
      '\x1b[15;2~', // xterm: Shift-F5
      '\x1b[24~', // F12
      '\x1b[2~', // Insert
      '\x1b[E', // keypad 5
      '\x1b[97u', // kitty protocol: a
      '\x1b[1;2H', // xterm: Shift-Home
    ]);
    expect(r.shown).toEqual([
      'URL: abc[d]',
      'URL: ab[c]d',
      'URL: abc[d]',
      'URL: abc[ ]',
      ...Array<string>(7).fill('URL: abc[ ]'),
      'URL: abca[ ]',
      'URL: [a]bca',
    ]);
    expect(r.submitted).toEqual(['abca']);
  });

  it('a sequence’s text without its ESC, typed or pasted, is text', async () => {
    const r = await typed('', ['[200~', '[201~', '[1;2P', '[25~', '[I', 'OM']);
    expect(r.submitted).toEqual(['[200~[201~[1;2P[25~[IOM']);
  });

  it('a value longer than its box scrolls to keep the cursor in view, … for what is left off', async () => {
    const url = 'https://gateway.example.com/openai/v1';
    // 20 columns: "URL: " and 15 cells for the value and its cursor
    const r = await typed(url, [KEY.home, ...Array<string>(20).fill(KEY.right), KEY.end], { width: 20 });
    expect(r.shown[0]).toBe('URL: [h]ttps://gatewa…');
    // the view follows the cursor no further than it must: it is on the last cell
    expect(r.shown[20]).toBe('URL: …gateway.exam[p]…');
    expect(r.shown[21]).toBe('URL: …com/openai/v1[ ]');
    for (const line of r.shown) expect(line.length - 2, line).toBeLessThanOrEqual(20);
    expect(r.submitted).toEqual([url]);
  });

  it('a hidden field keeps hiding: its cursor stays at the end, keys that move it do nothing', async () => {
    const r = await typed('sk-secret', [KEY.left, KEY.home, KEY.ctrlA, 'X', KEY.backspace, KEY.backspace], { hidden: true });
    for (const line of r.shown) expect(line).not.toMatch(/sk-|secret/);
    expect(r.shown[3]).toBe('URL: (hidden, 10 characters)[ ]');
    expect(r.submitted).toEqual(['sk-secre']);
  });
});
