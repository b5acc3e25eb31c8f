/**
 * Whether a logged request failed, as the log screen colours and filters it. A stream cut part-way
 * (the key revoked, the upstream gone) keeps the 200 it started with — what the client got — and
 * is logged with the error that ended it; on screen it is a failure, not a green 200. One the client
 * itself left is not.
 */
import type { RequestLogEntry } from '../../log/entry.js';
import { statusColour, type Theme } from '../theme.js';

export function entryFailed(e: Pick<RequestLogEntry, 'status' | 'errorCode'>): boolean {
  if (e.status === 0 || e.status >= 400) return true;
  // a client that hung up mid-stream (Esc in Claude Code) chose to: stats counts it as cancelled, not an error
  return e.errorCode !== undefined && e.errorCode !== CLIENT_LEFT;
}

const CLIENT_LEFT = 'client_disconnected';

/** The status cell's colour: its class, or the error colour for a 2xx/3xx that ended in an error. */
export function entryColour(theme: Theme, e: Pick<RequestLogEntry, 'status' | 'errorCode'>): string | undefined {
  return e.status > 0 && e.status < 400 && entryFailed(e) ? theme.error : statusColour(theme, e.status);
}
