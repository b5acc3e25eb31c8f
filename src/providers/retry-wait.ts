/**
 * How long an upstream's answer says to wait before trying again, read from its headers: its
 * own `retry-after-ms` / `retry-after`, or else its rate-limit reset headers — OpenAI's
 * `x-ratelimit-reset-<kind>` (Go durations: `1s`, `6m0s`, `1m30.5s`), Anthropic's
 * `anthropic-ratelimit-<kind>-reset` (RFC 3339 times), and a bare `x-ratelimit-reset` when it is
 * unmistakably an epoch time (OpenRouter and others). The official SDKs and the coding tools read
 * only retry-after(-ms); an upstream that sends just its reset headers otherwise gets retried
 * after half a second, and again, inside the same exhausted window. Pure: headers in, milliseconds out.
 */

/**
 * Longest wait a client is told to sit out and retry after, and longest cooldown of a limit that
 * resets within it (cooldowns.ts). A limit that resets later (per day, per month) is no wait: the
 * client is told not to retry (far-reset.ts).
 */
export const MAX_ADVISED_WAIT_MS = 5 * 60_000;
/** Longest time to a reset that is read as given; a later one (a reset in 2099, `9999…h`) is read as this. */
export const LONGEST_RESET_MS = 31 * 24 * 3_600_000;

type HeaderValue = string | string[] | undefined;
export type AnswerHeaders = Readonly<Record<string, HeaderValue>>;

/** Statuses a client may try again, where a wait means something: 408, 429, 5xx (529 included). */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** A wait as the advice the SDKs read: `retry-after` in whole seconds, rounded up, and `retry-after-ms`. */
export function waitAdvice(ms: number): { retryAfter: string; retryAfterMs: string } {
  return { retryAfter: String(Math.ceil(ms / 1000)), retryAfterMs: String(Math.ceil(ms)) };
}

/**
 * The wait the upstream's own retry advice names: `retry-after-ms`, else `retry-after` as seconds
 * or an HTTP date. Undefined when it names none, or none still ahead.
 */
export function advisedWaitMs(retryAfter: string | undefined, retryAfterMs: string | undefined, now: number): number | undefined {
  const ms = Number(retryAfterMs);
  if (retryAfterMs !== undefined && Number.isFinite(ms) && ms > 0) return ms;
  if (retryAfter === undefined) return undefined;
  const seconds = Number(retryAfter);
  if (retryAfter.trim() !== '' && Number.isFinite(seconds)) return seconds > 0 ? seconds * 1000 : undefined;
  const at = Date.parse(retryAfter);
  return Number.isFinite(at) && at > now ? at - now : undefined;
}

/**
 * The wait an error answer of `status` names: its own retry-after(-ms), else the one its reset
 * headers imply, read on the upstream's clock (upstreamClock). Undefined when it names none, or
 * the status is not one to retry.
 */
export function answerWaitMs(headers: AnswerHeaders, status: number, now: number): number | undefined {
  if (!retryableStatus(status)) return undefined;
  const clock = upstreamClock(first(headers.date), now);
  return advisedWaitMs(first(headers['retry-after']), first(headers['retry-after-ms']), clock) ?? resetWaitMs(headers, status, clock);
}

/**
 * The Date header's resolution is a second and the answer took its time to arrive: a difference
 * this small is that, not clocks apart.
 */
const CLOCK_TOLERANCE_MS = 2_000;

/**
 * The time to compare an answer's absolute reset times (RFC 3339, epoch, an HTTP-date
 * retry-after) with: the upstream's own clock, as its `Date` header gives it, when that is further
 * from ours than the header can tell; else ours. A laptop clock minutes off would otherwise add or
 * take those minutes from every wait.
 */
export function upstreamClock(date: string | undefined, now: number): number {
  if (date === undefined) return now;
  const at = Date.parse(date);
  return Number.isFinite(at) && Math.abs(at - now) > CLOCK_TOLERANCE_MS ? at : now;
}

/**
 * The wait the rate-limit reset headers imply for an answer of `status` (one a client may retry),
 * in whole milliseconds, at most LONGEST_RESET_MS (a per-day limit's hours are kept: whether the
 * wait is one to sit out is the caller's call, MAX_ADVISED_WAIT_MS); undefined when they imply none.
 *
 * Which limit was hit: those whose `remaining` header reads 0 — the latest of their resets. When
 * remaining headers are there and none reads 0, which limit refused is not known (a token budget
 * with some left but not enough for this request looks the same as one untouched), so nothing is
 * derived. Without remaining headers, a 429 says a limit was hit: the latest reset. Another status
 * (503, 529) is about capacity, not the limits: only an exhausted one counts.
 */
export function resetWaitMs(headers: AnswerHeaders, status: number, now: number): number | undefined {
  let exhausted: number | undefined;
  let latest: number | undefined;
  let remainingKnown = false;
  for (const name in headers) {
    const limit = limitOf(headers, name, now);
    if (!limit) continue;
    const wait = Math.max(0, limit.resetMs);
    latest = Math.max(latest ?? 0, wait);
    if (limit.remaining === undefined) continue;
    remainingKnown = true;
    if (limit.remaining <= 0) exhausted = Math.max(exhausted ?? 0, wait);
  }
  const wait = exhausted ?? (status === 429 && !remainingKnown ? latest : undefined);
  if (wait === undefined || !(wait > 0)) return undefined;
  return Math.ceil(Math.min(wait, LONGEST_RESET_MS));
}

/**
 * The reset headers of a stream's 200 that tell when a rate limit its error event reports later
 * resets (Anthropic's `event: error` names no wait; the answer's `anthropic-ratelimit-*-reset`
 * do). Their remaining counts were taken before the answer, when the request still fit: left
 * out, so the wait is the reset's (resetWaitMs reads a 429 without them as the latest reset). When
 * the message names the limit ("… 30,000 input tokens per minute"), only that limit's reset is
 * kept. Undefined when the answer has no reset header.
 */
export function streamLimitHeaders(headers: AnswerHeaders, message: string): Record<string, string> | undefined {
  let resets: Record<string, string> | undefined;
  for (const name in headers) {
    const value = first(headers[name]);
    if (value !== undefined && isResetHeader(name)) (resets ??= {})[name] = value;
  }
  if (resets === undefined) return undefined;
  const named = namedLimit(message);
  if (named === undefined) return resets;
  for (const name in resets) if (name === `x-ratelimit-reset-${named}` || name === `anthropic-ratelimit-${named}-reset`) return { [name]: resets[name]! };
  return resets;
}

function isResetHeader(name: string): boolean {
  return name.startsWith(OPENAI_RESET) || (name.startsWith(ANTHROPIC_PREFIX) && name.endsWith('-reset')) || name === 'x-ratelimit-reset';
}

/** The limit a rate-limit message names, as the reset headers name it. */
function namedLimit(message: string): string | undefined {
  if (/\binput tokens\b/i.test(message)) return 'input-tokens';
  if (/\boutput tokens\b/i.test(message)) return 'output-tokens';
  if (/\brequests\b/i.test(message)) return 'requests';
  if (/\btokens\b/i.test(message)) return 'tokens';
  return undefined;
}

/**
 * The rate-limit headers an error body repeats, names lower-cased: OpenRouter sends its own
 * limits' `X-RateLimit-Limit` / `-Remaining` / `-Reset` (epoch ms) only in `error.metadata.headers`.
 * Only `x-ratelimit-*` names with string values; undefined when there are none.
 */
export function bodyLimitHeaders(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  let out: Record<string, string> | undefined;
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    if (typeof v === 'string' && lower.startsWith('x-ratelimit-')) (out ??= {})[lower] = v;
  }
  return out;
}

/** The rate-limit headers an error body (`{error:{metadata:{headers}}}`, OpenRouter's) repeats; see bodyLimitHeaders. */
export function errorBodyLimitHeaders(json: unknown): Record<string, string> | undefined {
  const error = field(json, 'error');
  return bodyLimitHeaders(field(field(error, 'metadata'), 'headers'));
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

interface Limit {
  /** Until the limit resets (negative: it has). */
  resetMs: number;
  remaining?: number;
}

const OPENAI_RESET = 'x-ratelimit-reset-';
const ANTHROPIC_PREFIX = 'anthropic-ratelimit-';

/** The limit a reset header `name` reports, with its remaining count; undefined for any other header or an unreadable value. */
function limitOf(headers: AnswerHeaders, name: string, now: number): Limit | undefined {
  const value = first(headers[name]);
  if (value === undefined) return undefined;
  let resetMs: number | undefined;
  let remainingName: string;
  if (name.startsWith(OPENAI_RESET)) {
    resetMs = durationMs(value);
    remainingName = `x-ratelimit-remaining-${name.slice(OPENAI_RESET.length)}`;
  } else if (name.startsWith(ANTHROPIC_PREFIX) && name.endsWith('-reset')) {
    const at = rfc3339Ms(value);
    resetMs = at === undefined ? undefined : at - now;
    remainingName = `${name.slice(0, -'reset'.length)}remaining`;
  } else if (name === 'x-ratelimit-reset') {
    const at = epochMs(value, now);
    resetMs = at === undefined ? undefined : at - now;
    remainingName = 'x-ratelimit-remaining';
  } else return undefined;
  if (resetMs === undefined) return undefined;
  const remaining = countOf(first(headers[remainingName]));
  return remaining === undefined ? { resetMs } : { resetMs, remaining };
}

const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
// longer units first: `ms` must not be read as `m` followed by garbage
const DURATION_PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * A Go duration (`time.Duration.String()`, what OpenAI sends: `20ms`, `1m30.5s`, `2h0m0s`) in
 * milliseconds; a negative one is 0 (the limit has reset). Undefined when it is not one.
 */
export function durationMs(text: string): number | undefined {
  let s = text.trim();
  const negative = s.startsWith('-');
  if (negative || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  DURATION_PART.lastIndex = 0;
  while (DURATION_PART.lastIndex < s.length) {
    const m = DURATION_PART.exec(s);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return negative ? 0 : total;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** An RFC 3339 time (`2026-11-29T03:04:05Z`, with a fraction or an offset) as epoch milliseconds; undefined when it is not one. */
export function rfc3339Ms(text: string): number | undefined {
  const m = RFC3339.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  let at = Date.UTC(year, month - 1, day, hour, minute, second) + (m[7] ? Number(m[7]) * 1000 : 0);
  if (!m[8]) {
    const offsetMs = (Number(m[10]) * 60 + Number(m[11])) * 60_000;
    at -= m[9] === '+' ? offsetMs : -offsetMs;
  }
  return at;
}

/**
 * How far from now a bare number may be read as an epoch time. The same header carries epoch
 * seconds, epoch milliseconds, or a count of seconds or milliseconds to wait, depending on the
 * server; only a value that lands within a day of now as epoch seconds or milliseconds is
 * unmistakably one (a wait of 1.7 billion units would have to match today's date by chance).
 */
const EPOCH_WINDOW_MS = 24 * 3_600_000;

/** A bare `x-ratelimit-reset` as epoch milliseconds, when it is unmistakably an epoch time (see EPOCH_WINDOW_MS). */
export function epochMs(text: string, now: number): number | undefined {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return undefined;
  const n = Number(t);
  if (Math.abs(n - now) <= EPOCH_WINDOW_MS) return n;
  if (Math.abs(n * 1000 - now) <= EPOCH_WINDOW_MS) return n * 1000;
  return undefined;
}

function countOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*-?\d+(\.\d+)?\s*$/.test(text)) return undefined;
  return Number(text);
}

function first(v: HeaderValue): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
