/**
 * While a dialog or text field is open it owns the keyboard: the app's own keys (screen numbers,
 * Tab, q, ?) stand down so typing "q" into a name does not quit. Registered in a layout effect, so
 * the very next key already knows.
 */
import { createContext, useContext, useLayoutEffect, useRef, useState } from 'react';

export const CaptureContext = createContext<Set<symbol>>(new Set());

export function useCaptureKeys(on: boolean): void {
  const captures = useContext(CaptureContext);
  useLayoutEffect(() => {
    if (!on) return;
    const id = Symbol('capture');
    captures.add(id);
    return () => {
      captures.delete(id);
    };
  }, [captures, on]);
}

/**
 * Holds the keyboard from the moment it is called until the commit after its release: for an
 * action whose outcome the screen must still be there to show (a new key, shown only once). Added
 * at once, not on the next commit, so a key typed right after the Enter that started it waits too;
 * let go only once what the outcome opened (its own capture) is on screen.
 */
export function useCaptureHold(): () => () => void {
  const captures = useContext(CaptureContext);
  const held = useRef(new Set<symbol>()).current;
  const ending = useRef<symbol[]>([]);
  const [ended, setEnded] = useState(0);
  useLayoutEffect(() => {
    for (const id of ending.current.splice(0)) {
      held.delete(id);
      captures.delete(id);
    }
  }, [ended, captures, held]);
  // a screen gone (the app quit) holds nothing
  useLayoutEffect(
    () => () => {
      for (const id of held) captures.delete(id);
    },
    [captures, held],
  );
  return () => {
    const id = Symbol('hold');
    held.add(id);
    captures.add(id);
    return () => {
      ending.current.push(id);
      setEnded((n) => n + 1);
    };
  };
}
