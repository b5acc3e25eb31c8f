/**
 * While a dialog or text field is open it owns the keyboard: the app's own keys (screen numbers,
 * Tab, q, ?) stand down so typing "q" into a name does not quit. Registered in a layout effect, so
 * the very next key already knows.
 */
import { createContext, useContext, useLayoutEffect } from 'react';

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
