/**
 * A screen's mode: its list, or a dialog over it (a name being typed, a question). Opening a
 * dialog clears the message of the action before: that was about something else, and would
 * otherwise come back as if it were the outcome when the dialog is cancelled.
 */
import { useCallback, useRef } from 'react';
import { useLatestState } from './use-latest-state.js';

export function useDialogMode<M extends { kind: string }>(list: M, clearMessage: () => void): [M, (next: M) => void, () => M] {
  const [mode, setMode, getMode] = useLatestState<M>(list);
  const clear = useRef(clearMessage);
  clear.current = clearMessage;
  const set = useCallback(
    (next: M) => {
      // a dialog updated in place (a question whose details arrive) keeps what it shows
      if (next.kind !== list.kind && getMode().kind !== next.kind) clear.current();
      setMode(next);
    },
    [list.kind, setMode, getMode],
  );
  return [mode, set, getMode];
}
