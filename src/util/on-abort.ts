import type { EventEmitter } from 'node:events';

/**
 * Listen once for a signal's abort; returns the stop, for work that settles first. Takes undici's
 * emitter kind of signal (upstream-client.ts AbortEmitter) as well as an AbortSignal.
 */
export function onAbort(signal: AbortSignal | EventEmitter, listener: () => void): () => void {
  if ('addEventListener' in signal) {
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
  signal.once('abort', listener);
  return () => signal.removeListener('abort', listener);
}
