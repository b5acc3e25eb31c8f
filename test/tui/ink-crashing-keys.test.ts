/**
 * The keys that crash Ink 6's useInput (ink#901) are dropped from the terminal's bytes, and only
 * those: the verdict is checked against Ink's own parseKeypress over every legacy CSI key shape
 * (codes 1–35 with ~ ^ $, letters, modifiers 0–16), and KeySafeStdin delivers the filtered bytes
 * to a reader the way Ink reads them.
 */
import { PassThrough } from 'node:stream';
// Ink's parser is not in its exports map: read from its build by path (the crash lives there).
import parseKeypress from '../../node_modules/ink/build/parse-keypress.js';
import { describe, expect, it } from 'vitest';
import { crashesInk, dropInkCrashingKeys } from '../../src/tui/ink-crashing-keys.js';
import { KeySafeStdin } from '../../src/tui/key-safe-stdin.js';

/** What Ink 6.8's useInput does with a legacy key: input = name when ctrl, then input.startsWith. */
function inkThrows(sequence: string): boolean {
  const key = parseKeypress(sequence);
  return key.isKittyProtocol !== true && key.ctrl && (key.name as string | undefined) === undefined;
}

function legacyShapes(): string[] {
  const out: string[] = [];
  const mods = ['', ...Array.from({ length: 17 }, (_, i) => `;${i}`)];
  for (const prefix of ['\x1b[', '\x1b\x1b[', '\x1b[[']) {
    for (let n = 1; n <= 35; n++) for (const m of mods) for (const end of ['~', '^', '$']) out.push(`${prefix}${n}${m}${end}`);
    for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz') {
      out.push(`${prefix}${letter}`);
      for (const m of mods) out.push(`${prefix}1${m}${letter}`);
    }
  }
  for (const m of mods) out.push(`\x1b[97${m}u`, `\x1b[1${m}u`);
  return out;
}

describe('keys that crash Ink', () => {
  it('crashesInk agrees with Ink 6 parseKeypress on every legacy CSI key shape', () => {
    const shapes = legacyShapes();
    const disagree = shapes.filter((s) => crashesInk(s) !== inkThrows(s)).map((s) => JSON.stringify(s));
    expect(disagree).toEqual([]);
    // the check covers both verdicts: xterm's Ctrl-F1 crashes, Ctrl-Up does not
    expect(inkThrows('\x1b[1;5P')).toBe(true);
    expect(inkThrows('\x1b[1;5A')).toBe(false);
  });

  it('drops exactly the crashing sequences from the bytes read, keeping the rest in order', () => {
    expect(dropInkCrashingKeys('a\x1b[1;5Pb')).toBe('ab'); // xterm Ctrl-F1
    expect(dropInkCrashingKeys('\x1b[25;5~x\x1b\x1b[1;5Q')).toBe('x'); // Ctrl-F13, Alt-Ctrl-F2
    expect(dropInkCrashingKeys('\x1b[1;5A\x1b[15;5~\x1b[1;2P\x1b[25~')).toBe('\x1b[1;5A\x1b[15;5~\x1b[1;2P\x1b[25~'); // named, or no Ctrl
    expect(dropInkCrashingKeys('[1;5P plain text')).toBe('[1;5P plain text');
    expect(dropInkCrashingKeys('\x1b[97;5u')).toBe('\x1b[97;5u'); // kitty Ctrl-a
  });
});

describe('KeySafeStdin', () => {
  function fakeTty(): PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode(m: boolean): void; ref(): void; unref(): void; refs: string[] } {
    const s = Object.assign(new PassThrough(), { isTTY: true, isRaw: false, refs: [] as string[] });
    return Object.assign(s, {
      setRawMode(m: boolean) {
        s.isRaw = m;
      },
      ref() {
        s.refs.push('ref');
      },
      unref() {
        s.refs.push('unref');
      },
    });
  }

  it('reads as Ink does (utf8, readable + read) and gets the bytes without the crashing keys; raw mode and ref/unref reach the terminal', async () => {
    const tty = fakeTty();
    const keys = new KeySafeStdin(tty as unknown as NodeJS.ReadStream);
    expect(keys.isTTY).toBe(true);
    keys.setEncoding('utf8');
    keys.ref();
    keys.setRawMode(true);
    expect(tty.isRaw).toBe(true);
    expect(keys.isRaw).toBe(true);
    const got: string[] = [];
    const readable = () => {
      let chunk: string | null;
      while ((chunk = keys.read() as string | null) !== null) got.push(chunk);
    };
    keys.on('readable', readable);
    // é split across two reads still arrives whole
    tty.write(Buffer.from('x\x1b[1;5P\xc3', 'latin1'));
    tty.write(Buffer.from('\xa9\x1b[1;5A', 'latin1'));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(got.join('')).toBe('xé\x1b[1;5A');
    keys.setRawMode(false);
    keys.unref();
    expect(tty.isRaw).toBe(false);
    expect(tty.refs).toEqual(['ref', 'unref']);
    keys.off('readable', readable);
    keys.release();
    expect(tty.listenerCount('data')).toBe(0);
  });

  it('does not read the terminal before Ink asks', () => {
    const tty = fakeTty();
    new KeySafeStdin(tty as unknown as NodeJS.ReadStream);
    expect(tty.isPaused()).toBe(true);
  });
});
