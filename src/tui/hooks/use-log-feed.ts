/**
 * The live request log, held for the whole app (the log screen and the providers screen read it):
 * follows GET /admin/logs/stream from each backend the link hands out, and shows new entries at
 * most every `flushMs` — one render per tick however many requests arrived. Paused, entries are
 * held back and counted.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { AdminApiError } from '../../cli/admin-client.js';
import { LogBuffer } from '../log/log-buffer.js';
import { useBackend, useLink } from './use-link.js';
import { errorText } from './use-resource.js';

export interface FeedOptions {
  /** Entries kept in memory (default 2000). */
  capacity?: number;
  /** Backlog asked for on each (re)connect (default 500). */
  recent?: number;
  /** Render interval for new entries (default 100 ms, i.e. at most 10 renders/s). */
  flushMs?: number;
}

export interface LogFeed {
  buffer: LogBuffer;
  /** Changes whenever buffer.entries() does. */
  version: number;
  /** Entries held back while paused. */
  held: number;
  paused: boolean;
  setPaused(p: boolean): void;
  /** A feed error that is not a lost daemon (shown on the log screen). */
  error: string | undefined;
}

export function useLogFeed(opts: FeedOptions = {}): LogFeed {
  const link = useLink();
  const backend = useBackend();
  const buffer = useRef<LogBuffer | null>(null);
  buffer.current ??= new LogBuffer(opts.capacity ?? 2_000);
  const [version, setVersion] = useState(0);
  const [held, setHeld] = useState(0);
  const [paused, setPausedState] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const pausedRef = useRef(false);
  const recent = opts.recent ?? 500;
  const flushMs = opts.flushMs ?? 100;

  useEffect(() => {
    if (!backend) return;
    const stop = new AbortController();
    const buf = buffer.current!;
    const params = new URLSearchParams({ recent: String(recent) });
    setError(undefined);
    backend.follow(params, (e) => buf.push(e), stop.signal).then(
      (end) => {
        if (end === 'daemon_stopped') link.lost(backend, 'the daemon stopped');
        else if (end === 'connection_lost') link.lost(backend, 'lost the connection to the daemon');
      },
      (err: unknown) => {
        if (err instanceof AdminApiError && err.status !== 401) setError(errorText(err));
        else link.lost(backend, err instanceof Error ? err.message : String(err));
      },
    );
    return () => stop.abort();
  }, [backend, link, recent]);

  useEffect(() => {
    const buf = buffer.current!;
    const timer = setInterval(() => {
      if (!pausedRef.current && buf.flush()) setVersion(buf.version);
      setHeld(buf.pendingCount);
    }, flushMs);
    return () => clearInterval(timer);
  }, [flushMs]);

  const setPaused = useCallback((p: boolean) => {
    pausedRef.current = p;
    setPausedState(p);
    if (!p) {
      const buf = buffer.current!;
      if (buf.flush()) setVersion(buf.version);
      setHeld(0);
    }
  }, []);

  return { buffer: buffer.current, version, held, paused, setPaused, error };
}
