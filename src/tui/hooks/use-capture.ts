/**
 * While a dialog or text field is open it owns the keyboard: the app's own keys (screen numbers,
 * Tab, q, ?) stand down so typing "q" into a name does not quit.
 */
import { createContext, useContext, useEffect, useId } from 'react';

export type CaptureSetter = (id: string, on: boolean) => void;

export const CaptureContext = createContext<CaptureSetter>(() => {});

export function useCaptureKeys(on: boolean): void {
  const set = useContext(CaptureContext);
  const id = useId();
  useEffect(() => {
    set(id, on);
    return () => set(id, false);
  }, [set, id, on]);
}
