/**
 * Data loaded from the daemon: loads when the backend (re)appears, on `reload()`, when `key`
 * changes, and every `pollMs` while mounted. The last good data stays on screen while a reload
 * runs or fails.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isDaemonLoss, type TuiBackend } from '../backend.js';
import { useBackend } from './use-link.js';
import { printable } from '../../util/printable.js';

export interface Resource<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

/** An error's message as the screen shows it: it may quote an upstream, so never obeyed by the terminal. */
export function errorText(err: unknown): string {
  return printable(err instanceof Error ? err.message : String(err));
}

/**
 * `key`: what the loader asks for (a grouping, a window). A new one loads at once, and until it
 * answers the resource is loading, without the error of what was asked before.
 */
export function useResource<T>(load: (b: TuiBackend) => Promise<T>, opts: { pollMs?: number; key?: string } = {}): Resource<T> {
  const backend = useBackend();
  const loader = useRef(load);
  loader.current = load;
  const [state, setState] = useState<{ data: T | undefined; error: string | undefined; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const [tick, setTick] = useState(0);
  const loadedKey = useRef(opts.key);

  useEffect(() => {
    if (!backend) return;
    let cancelled = false;
    const newKey = loadedKey.current !== opts.key;
    loadedKey.current = opts.key;
    // Only the first load, or one for a new key, shows as loading: a poll keeps the screen as it
    // is until new data comes.
    setState((s) => (newKey ? { ...s, error: undefined, loading: true } : s.loading || s.data !== undefined ? s : { ...s, loading: true }));
    loader.current(backend).then(
      (data) => {
        if (!cancelled) setState({ data, error: undefined, loading: false });
      },
      (err: unknown) => {
        // A lost daemon is shown once, by the status line; the data stays as it was.
        if (!cancelled) setState((s) => ({ ...s, error: isDaemonLoss(err) ? s.error : errorText(err), loading: false }));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [backend, tick, opts.key]);

  useEffect(() => {
    if (!opts.pollMs || !backend) return;
    const t = setInterval(() => setTick((n) => n + 1), opts.pollMs);
    return () => clearInterval(t);
  }, [opts.pollMs, backend]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  // the render a new key brings comes before the effect that clears the old key's error: without
  // this, that one frame shows the error under the new key's title
  if (loadedKey.current !== opts.key) return { ...state, error: undefined, loading: true, reload };
  return { ...state, reload };
}
