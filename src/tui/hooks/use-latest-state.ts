/**
 * State whose latest value can be read at once. Keys that arrive together (a fast typist, a paste,
 * tmux send-keys) reach the input handler before React re-renders; reading the ref instead of the
 * rendered value makes "↓ then c" act on the row ↓ moved to.
 */
import { useCallback, useRef, useState } from 'react';

export function useLatestState<T>(initial: T): [T, (next: T) => void, () => T] {
  const ref = useRef(initial);
  const [value, setValue] = useState(initial);
  const set = useCallback((next: T) => {
    ref.current = next;
    setValue(next);
  }, []);
  const get = useCallback(() => ref.current, []);
  return [value, set, get];
}
