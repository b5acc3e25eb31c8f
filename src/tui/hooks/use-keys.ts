/**
 * Keyboard routing. Ink's useInput (re)subscribes handlers in passive effects, which can run after
 * the next key has arrived: a key typed right after a field opens would be lost, or acted on by a
 * list no longer on screen. So the app subscribes once, at its root, and hands each key to the
 * handlers registered here — registered in layout effects (at once on commit), each called in its
 * latest version and only while active.
 */
import { useInput, useStdin, type Key } from 'ink';
import { createContext, useContext, useLayoutEffect, useMemo, useRef } from 'react';

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
 * A bracketed-paste mark (`ESC [ 200 ~` before a paste, `ESC [ 201 ~` after): the app never turns
 * the mode on, but a terminal sends them when something else left it on (a shell). Ink passes each
 * as a read of its own, unnamed and with its ESC cut off, so a field would take `[200~` in as text;
 * only the read tells it from those five characters typed or pasted.
 */
export function isPasteMark(read: string): boolean {
  return read === '\x1b[200~' || read === '\x1b[201~';
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
  useInput((input, ink) => {
    if (isPasteMark(lastRead.current)) return;
    const key = withBackspace(ink, lastRead.current);
    const parts = key.return ? [input] : splitAtLineBreaks(input);
    if (parts.length === 1 && parts[0] === input) return router.dispatch(input, key);
    for (const part of parts) router.dispatch(part, part === '\r' ? { ...key, return: true } : key);
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
