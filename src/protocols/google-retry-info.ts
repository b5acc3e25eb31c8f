/**
 * The wait Google states in an error: its `details[]` may hold a `google.rpc.RetryInfo` whose
 * `retryDelay` is a protobuf Duration in its JSON form, seconds with an `s` (`"37s"`,
 * `"1.500s"`). Gemini sends it with a 429 in the body only, as no `Retry-After` header, on its
 * native and its OpenAI-compatible endpoint alike. Pure: an error object in, milliseconds out.
 *
 * A per-day quota used up (its QuotaFailure names one, quota-used-up.ts) comes with a RetryInfo
 * of seconds all the same, though a retry then meets the same quota: Google's daily quotas reset
 * at midnight Pacific time (ai.google.dev/gemini-api/docs/rate-limits), so that is its wait.
 */
import { isRecord } from './chat/guards.js';
import { namesDailyQuota } from './quota-used-up.js';

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const DURATION = /^(\d+(?:\.\d+)?)s$/;

/** The wait a Google error object (`error` of its body) states, in whole milliseconds; undefined when it states none, or none ahead. */
export function googleRetryDelayMs(err: Readonly<Record<string, unknown>>): number | undefined {
  if (!Array.isArray(err.details)) return undefined;
  for (const detail of err.details) {
    if (!isRecord(detail) || detail['@type'] !== RETRY_INFO || typeof detail.retryDelay !== 'string') continue;
    const m = DURATION.exec(detail.retryDelay.trim());
    const ms = m ? Math.ceil(Number(m[1]) * 1000) : 0;
    return ms > 0 ? ms : undefined;
  }
  return undefined;
}

/**
 * The wait of a Google error at `now` (epoch ms): until the next midnight Pacific time when it
 * names a per-day quota, else its RetryInfo's (googleRetryDelayMs).
 */
export function googleWaitMs(err: Readonly<Record<string, unknown>>, now: number): number | undefined {
  if (Array.isArray(err.details) && err.details.some(namesDailyQuota)) return untilPacificMidnightMs(now);
  return googleRetryDelayMs(err);
}

/** Read once, on an error path only: a formatter is costly to make. */
let pacific: Intl.DateTimeFormat | undefined;

/** How far Pacific wall-clock time is ahead of UTC at `t` (negative: -8 h, or -7 h in summer). */
function pacificOffsetMs(t: number): number {
  pacific ??= new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const part: Record<string, number> = {};
  for (const p of pacific.formatToParts(t)) if (p.type !== 'literal') part[p.type] = Number(p.value);
  const wall = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return wall - (t - (((t % 1000) + 1000) % 1000));
}

/** Milliseconds from `now` to the next midnight in America/Los_Angeles (summer time or not). */
export function untilPacificMidnightMs(now: number): number {
  const offset = pacificOffsetMs(now);
  const wall = new Date(now + offset);
  const nextDay = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1);
  // the clocks change at 2 a.m., so between now and that midnight the offset may have: read it there
  let midnight = nextDay - offset;
  const there = pacificOffsetMs(midnight);
  if (there !== offset) midnight = nextDay - there;
  return midnight - now;
}
