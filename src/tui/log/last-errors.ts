/**
 * Each upstream's most recent failure, read from the request log the TUI already holds: a failed
 * attempt (fallbacks included), or a request refused before any attempt, counted for the provider
 * its model id names. Skipped attempts (policy said no before anything was sent) are not the
 * provider's fault and do not count, nor does a client hanging up (client_disconnected), nor a
 * request the daemon ended itself while a target was asked (its key revoked, the drain deadline,
 * an audio upload it refused while relaying it: over the body limit or the memory budget).
 */
import type { RequestLogEntry } from '../../log/entry.js';

export interface LastError {
  /** ISO time of the request. */
  time: string;
  status: number;
  code?: string;
}

function providerOf(target: string): string {
  const i = target.indexOf('/');
  return i < 0 ? target : target.slice(0, i);
}

const failed = (status: number) => status === 0 || status >= 400;

// the client left, or the daemon ended the request (engine.ts, transcriptions-endpoint.ts): says nothing about the upstream
const DAEMON_ENDED = new Set(['client_disconnected', 'invalid_api_key', 'shutting_down', 'request_too_large', 'proxy_overloaded']);
const notTheUpstream = (code: string | undefined) => code !== undefined && DAEMON_ENDED.has(code);

/** `entries` newest first; the first failure seen per provider wins. */
export function lastErrors(entries: readonly RequestLogEntry[]): Map<string, LastError> {
  const out = new Map<string, LastError>();
  for (const e of entries) {
    if (e.attempts.length > 0) {
      for (let i = e.attempts.length - 1; i >= 0; i--) {
        const a = e.attempts[i]!;
        if (a.skipped || !failed(a.status) || notTheUpstream(a.errorCode)) continue;
        const p = providerOf(a.target);
        if (!out.has(p)) out.set(p, { time: e.time, status: a.status, ...(a.errorCode ? { code: a.errorCode } : {}) });
      }
    } else if (failed(e.status) && !notTheUpstream(e.errorCode)) {
      // Refused before any attempt (e.g. provider_not_connected): the provider named in the model id.
      const p = e.provider ?? (e.base === 'provider' && e.modelAsked?.includes('/') ? providerOf(e.modelAsked) : undefined);
      if (p && !out.has(p)) out.set(p, { time: e.time, status: e.status, ...(e.errorCode ? { code: e.errorCode } : {}) });
    }
  }
  return out;
}
