/**
 * The current time as an ISO 8601 string, made once per millisecond. Every request's log record
 * takes one; `new Date().toISOString()` costs ~0.6 µs on the bench machine, a Date.now() ~0.05,
 * and under load several requests arrive within the same millisecond.
 */
let lastMs = Number.NaN;
let lastIso = '';

export function isoNow(now: number = Date.now()): string {
  if (now !== lastMs) {
    lastIso = new Date(now).toISOString();
    lastMs = now;
  }
  return lastIso;
}
