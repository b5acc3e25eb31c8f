/**
 * Running one admin action from a screen: with the current backend (or "the daemon is away"),
 * its outcome as the screen's one-line message, then the screen's data reloaded.
 */
import { useState } from 'react';
import type { TuiBackend } from '../backend.js';
import { DAEMON_AWAY, type Flash } from '../components/Message.js';
import { useBackend } from './use-link.js';
import { errorText } from './use-resource.js';

export interface Actions {
  flash: Flash | undefined;
  setFlash(f: Flash | undefined): void;
  /**
   * Runs `what`; its Flash (or the error) becomes the message; `then` runs after a success.
   * `refused` takes the daemon's reason instead of the message: a dialog reopens with it, and with what was typed
   * (`err` says which answer, where a dialog asks several).
   */
  run(what: (b: TuiBackend) => Promise<Flash>, then?: () => void, refused?: (reason: string, err: unknown) => void): void;
}

export function useAction(reload: () => void): Actions {
  const backend = useBackend();
  const [flash, setFlash] = useState<Flash | undefined>();
  const run = (what: (b: TuiBackend) => Promise<Flash>, then?: () => void, refused?: (reason: string, err: unknown) => void) => {
    if (!backend) return setFlash(DAEMON_AWAY);
    void (async () => {
      try {
        setFlash(await what(backend));
        then?.();
      } catch (err) {
        if (refused) refused(errorText(err), err);
        else setFlash({ kind: 'error', text: errorText(err) });
      }
      reload();
    })();
  };
  return { flash, setFlash, run };
}
