/**
 * Ink's useInput with the handler of the latest render. Ink re-subscribes a new handler in an
 * effect, which can run after the next key has arrived; a key must never act on a list that is no
 * longer on screen. The subscription itself stays put.
 */
import { useInput, type Key } from 'ink';
import { useCallback, useRef } from 'react';

export function useKeys(handler: (input: string, key: Key) => void, opts: { isActive?: boolean } = {}): void {
  const latest = useRef(handler);
  latest.current = handler;
  const stable = useCallback((input: string, key: Key) => latest.current(input, key), []);
  useInput(stable, opts);
}
