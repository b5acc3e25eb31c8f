/**
 * Keyboard routing. Ink's useInput (re)subscribes handlers in passive effects, which can run after
 * the next key has arrived: a key typed right after a field opens would be lost, or acted on by a
 * list no longer on screen. So the app subscribes once, at its root, and hands each key to the
 * handlers registered here — registered in layout effects (at once on commit), each called in its
 * latest version and only while active.
 */
import { useInput, useStdin, type Key } from 'ink';
import { createContext, useContext, useLayoutEffect, useMemo, useRef, useState } from 'react';

type Handler = (input: string, key: Key) => void;

interface Registration {
  handler: { current: Handler };
  active: { current: boolean };
}

export class KeyRouter {
  private readonly registrations = new Set<Registration>();

  add(r: Registration): () => void {
    this.registrations.add(r);
    return () => {
      this.registrations.delete(r);
    };
  }

  dispatch(input: string, key: Key): void {
    // A handler registered while this key is handled (a field it opened) starts with the next key.
    for (const r of [...this.registrations]) if (r.active.current) r.handler.current(input, key);
  }
}

const KeyRouterContext = createContext<KeyRouter | null>(null);
export const KeyRouterProvider = KeyRouterContext.Provider;

/**
 * Ink hands over one read of the terminal as one event, and marks Enter only when the read is `\r`
 * alone: typed text and Enter that arrive together (a paste ending in a line break, keys sent by
 * a program, a busy machine) would lose the Enter. Such a read is split: each line break is an
 * Enter of its own (`\r\n` one), the text between goes as text.
 */
export function splitAtLineBreaks(input: string): string[] {
  if (input.length < 2 || !/[\r\n]/.test(input)) return [input];
  const parts: string[] = [];
  for (const piece of input.split(/(\r\n|\r|\n)/)) {
    if (piece === '') continue;
    parts.push(piece === '\r\n' || piece === '\n' ? '\r' : piece);
  }
  return parts;
}

/**
 * Ink names both the Backspace key (`\x7f`, what most terminals send for it, "delete" on a Mac)
 * and the Delete key (`\x1b[3~`) `delete`, so a text field could not tell erasing before its
 * cursor from erasing at it. The read's bytes can: `\x7f` (Alt with it: `\x1b\x7f`) is marked
 * `backspace` as well — a list that removes its row on either key still sees `delete`.
 */
export function withBackspace(key: Key, read: string): Key {
  return key.delete && !key.backspace && (read === '\x7f' || read === '\x1b\x7f') ? { ...key, backspace: true } : key;
}

/**
 * A complete CSI or SS3 sequence (Alt with it: a second ESC before it), as Ink's parser cuts one
 * out of a read. `ESC [ [` opens the Linux console's F1–F5; rxvt ends Shift-modified keys in `$`,
 * which is no final byte in the standard (Ink hands it over when no more bytes follow).
 */
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const CONTROL_SEQUENCE = /^\x1b\x1b?(?:\[\[?[\x20-\x3f]*[$\x40-\x7e]|O[\x40-\x7e])$/;

/**
 * An escape sequence Ink has no name for: F13 and up (`ESC [ 25 ~`), modified F-keys
 * (`ESC [ 1 ; 2 P`, rxvt's `ESC [ 11 ^`), bracketed-paste marks a shell left on, focus reports.
 * Ink passes such a read as its own text less the ESC, so a field would take `[25~` in; a key it
 * names gets a flag and no text (or, in the kitty protocol, the key's own text). Only the read
 * tells such a sequence from the same characters typed or pasted.
 */
function isUnnamedSequence(read: string, input: string): boolean {
  return read.charCodeAt(0) === 0x1b && input !== '' && input === read.slice(1) && CONTROL_SEQUENCE.test(read);
}

/** The app root's single subscription to Ink's input. */
export function useKeyRouterRoot(): KeyRouter {
  const router = useMemo(() => new KeyRouter(), []);
  // Ink's handler gets no bytes: a listener put first on the emitter Ink's handler listens to
  // notes each read before that handler sees it.
  const { internal_eventEmitter: reads } = useStdin();
  const lastRead = useRef('');
  useLayoutEffect(() => {
    const note = (read: string) => {
      lastRead.current = read;
    };
    reads.prependListener('input', note);
    return () => {
      reads.off('input', note);
    };
  }, [reads]);
  // What follows a read's first line break waits, handed back to Ink as a read of its own once
  // React has committed what the Enter did (a field closed, a wizard's next question, and their key
  // handlers): it is for what is on screen then. Reads that arrive meanwhile wait behind it, in order.
  // Ink hands a read's escape sequences over one by one, at once: an arrow in the read of an Enter
  // (or in the next read, on a busy machine) waits too, `held` from that Enter to the commit after it.
  const waiting = useRef<string[]>([]);
  const held = useRef(false);
  const replaying = useRef(false);
  const [replays, setReplays] = useState(0);
  useLayoutEffect(() => {
    if (waiting.current.length === 0 && !held.current) return;
    const next = setImmediate(() => {
      held.current = false;
      const read = waiting.current.shift();
      if (read === undefined) return;
      replaying.current = true;
      try {
        reads.emit('input', read);
      } finally {
        replaying.current = false;
      }
      if (waiting.current.length > 0) setReplays((n) => n + 1);
    });
    return () => clearImmediate(next);
  }, [replays, reads]);
  const holdUntilCommitted = () => {
    held.current = true;
    setReplays((n) => n + 1);
  };
  useInput((input, ink) => {
    const read = lastRead.current;
    if ((waiting.current.length > 0 || held.current) && !replaying.current) {
      waiting.current.push(read);
      return;
    }
    if (isUnnamedSequence(read, input)) return;
    const key = withBackspace(ink, read);
    const parts = key.return ? [input] : splitAtLineBreaks(input);
    if (parts.length === 1 && parts[0] === input) {
      router.dispatch(input, key);
      if (key.return) holdUntilCommitted();
      return;
    }
    const enter = parts.indexOf('\r');
    for (const part of parts.slice(0, enter + 1)) router.dispatch(part, part === '\r' ? { ...key, return: true } : key);
    const rest = parts.slice(enter + 1).join('');
    if (rest !== '') waiting.current.unshift(rest);
    holdUntilCommitted();
  });
  return router;
}

export function useKeys(handler: Handler, opts: { isActive?: boolean } = {}): void {
  const router = useContext(KeyRouterContext);
  if (!router) throw new Error('useKeys outside <KeyRouterProvider>');
  const latest = useRef(handler);
  latest.current = handler;
  const active = useRef(opts.isActive !== false);
  active.current = opts.isActive !== false;
  useLayoutEffect(() => router.add({ handler: latest, active }), [router]);
}
