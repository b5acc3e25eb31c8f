/**
 * A limit that resets beyond the longest wait a client is told to sit out (MAX_ADVISED_WAIT_MS): a
 * tokens- or requests-per-day limit, a monthly budget. Advising the capped wait had the SDKs and
 * the coding tools retry every few minutes for hours, each retry refused again; such an answer
 * carries `x-should-retry: false` instead (both official SDKs and Claude Code obey it before any
 * status rule), and its message says when the limit resets. Pure: a wait and a clock in, words out.
 */
import { MAX_ADVISED_WAIT_MS } from './retry-wait.js';

/** Whether a wait is past the one a client should sit out before retrying. */
export function beyondAdvice(waitMs: number): boolean {
  return waitMs > MAX_ADVISED_WAIT_MS;
}

/**
 * When the wait ends, for a person: "the limit resets in 7 h 12 min (at 14:32 UTC)" for a 429 or
 * a used-up quota's 402,
 * "the provider asks not to retry for 2 h (until 09:00 UTC)" for another status (a 503 whose
 * Retry-After names a maintenance window). Both are rounded up to the minute: never sooner than
 * the upstream said. The date is given when it is not today's (UTC).
 */
export function farResetWords(status: number, waitMs: number, now: number): string {
  const at = timeOfDay(now + waitMs, now);
  const span = spanWords(waitMs);
  // a used-up quota (402) resets as a rate limit does
  return status === 429 || status === 402 ? `the limit resets in ${span} (at ${at})` : `the provider asks not to retry for ${span} (until ${at})`;
}

/** A span rounded up to the minute: `7 h 12 min`, `2 d 3 h`, `45 min`. */
export function spanWords(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(`${days} d`);
  if (hours > 0) parts.push(`${hours} h`);
  // minutes beside days are noise
  if (rest > 0 && days === 0) parts.push(`${rest} min`);
  return parts.join(' ');
}

/** `14:32 UTC`, or `2026-11-30 14:32 UTC` on another day than `now`'s; rounded up to the minute. */
function timeOfDay(at: number, now: number): string {
  const iso = new Date(Math.ceil(at / 60_000) * 60_000).toISOString();
  const day = iso.slice(0, 10);
  const clock = `${iso.slice(11, 16)} UTC`;
  return day === new Date(now).toISOString().slice(0, 10) ? clock : `${day} ${clock}`;
}
