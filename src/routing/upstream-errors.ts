/**
 * Upstream error answers → one svc-proxy error: status preserved, message prefixed with the
 * provider slug and redacted, a stable code, and whether it is the context-length kind (which
 * groups may fall back on although it is a 400).
 *
 * Shapes understood: OpenAI `{error:{message,type,param,code}}`, Anthropic
 * `{type:"error",error:{type,message}}`, OpenRouter `{error:{code:<number>,message,metadata}}`,
 * Google `{error:{code,message,status}}` (also wrapped in a JSON array), and the loose shapes of
 * local servers (`{error:"…"}`, `{detail:"…"}`, `{message:"…"}`), and pydantic validation lists
 * (`{detail:[{loc,msg}]}`: FastAPI servers, Mistral).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { HubError } from '../protocols/hub.js';
import { redactSecret } from './redact.js';
import { codeForStatus } from '../protocols/upstream-codes.js';
import { quotaUsedUp } from '../protocols/quota-used-up.js';
import { googleWaitMs } from '../protocols/google-retry-info.js';
import { upstreamHeader } from './upstream-header.js';
import { advisedWaitMs, bodyLimitHeaders, errorBodyLimitHeaders, LONGEST_RESET_MS, resetWaitMs, retryableStatus as retryable, streamLimitHeaders, upstreamClock, waitAdvice, type AnswerHeaders } from '../providers/retry-wait.js';
import { beyondAdvice, farResetWords } from '../providers/far-reset.js';
import { isRedirect, redirectFailure } from './upstream-redirect.js';

export { codeForStatus };

export interface UpstreamFailure extends HubError {
  /** Status the upstream answered with (0 = no answer). Drives the fallback decision. */
  upstreamStatus: number;
  /** Request-caused but another model may take it (prompt too long for this one). */
  contextLength?: boolean;
  /** Upstream Retry-After, passed through on 429/503; derived from its rate-limit reset headers when it sent none. */
  retryAfter?: string;
  /** The upstream's `retry-after-ms` (OpenAI's, read by its SDKs before retry-after). */
  retryAfterMs?: string;
  /** The upstream's `x-should-retry` ("true"/"false"): the official SDKs follow it over the status. */
  shouldRetry?: string;
  /**
   * When a limit that resets beyond the longest wait to sit out resets (epoch ms, our clock): the
   * failure then says not to retry (far-reset.ts), and its target cools down until then.
   */
  resetsAt?: number;
}

/** A 2xx whose body is not the answer it should be (our words after the provider's slug). */
export function invalidResponse(slug: string, message: string): UpstreamFailure {
  return { status: 502, code: 'upstream_invalid_response', message: `${slug}: ${message}`, upstreamStatus: 502 };
}

export interface ParsedError {
  message: string;
  /** Upstream's own type/status/code words, for classification only. */
  kind: string;
  /** Status implied by the body (Google/OpenRouter numeric code, Anthropic type). */
  impliedStatus?: number;
  param?: string;
  /** Rate-limit headers the body repeats (OpenRouter's `metadata.headers`), names lower-cased. */
  limitHeaders?: Record<string, string>;
  /** A quota used up, whatever the status said (quota-used-up.ts): a billing failure, not a rate limit. */
  quotaUsedUp?: boolean;
  /** The wait the body states (Google's RetryInfo), in milliseconds. */
  statedWaitMs?: number;
  /** Anthropic's `error.details` (its SDK acts on `error_code`: a lost thread is replayed, …). */
  details?: Record<string, unknown>;
}

const CONTEXT_RE =
  /context[ _-]?(length|window|size)|exceed_context|maximum context|maximum prompt length|exceeded model token limit|model max length exceeded|prompt is too long|input is too long|too many (input )?tokens|token count.{0,40}exceeds|reduce the length of the (messages|prompt|input)/i;

/**
 * llama-server answers input it cannot take with 500 server_error: an image or audio part with no
 * projector loaded, a content part type it does not know, tools without `--jinja`
 * (ggml-org/llama.cpp#13566, #15377, #12947). The same request fails the same way every time, so
 * the client gets a 400 and does not retry it (Codex retries a 5xx four times); a group still moves
 * on, by the upstream's status, to a target that may take it.
 */
const INPUT_NOT_TAKEN_RE = /(image|audio) input is not supported|unsupported content part type|tools param requires --jinja/i;

/** Build the failure for an upstream non-2xx answer (or a 2xx whose body is an error). */
export function upstreamFailure(
  slug: string,
  status: number,
  body: Buffer,
  contentType: string | undefined,
  credential: string | undefined,
  retryAfter?: string,
): UpstreamFailure {
  return failureOfBody(slug, status, body, parseErrorBody(body), contentType, credential, retryAfter);
}

/**
 * upstreamFailure for a body the caller has already parsed: `parsed` is describeErrorJson of
 * it, or undefined when it is not JSON or no error shape. A 2xx answer is parsed to see whether
 * it is an error at all; parsing it again here would read the whole body twice.
 */
export function failureOfBody(
  slug: string,
  status: number,
  body: Buffer,
  parsed: ParsedError | undefined,
  contentType: string | undefined,
  credential: string | undefined,
  retryAfter?: string,
): UpstreamFailure {
  if (!parsed) {
    const message = redactSecret(`${slug}: upstream answered HTTP ${status} with ${describeNonJson(body, contentType)}`, credential);
    // A 4xx keeps its status even as an HTML page (Cloudflare's 413 in front of Anthropic): the
    // client must not retry what cannot succeed. 2xx and 5xx garbage is a bad gateway.
    if (status >= 400 && status < 500) {
      const failure: UpstreamFailure = { status, code: codeForStatus(status), message, upstreamStatus: status };
      if (retryAfter && retryable(status)) failure.retryAfter = retryAfter;
      return failure;
    }
    const failure: UpstreamFailure = {
      status: 502,
      code: 'upstream_invalid_response',
      message,
      // a 2xx that is not JSON is the upstream's failure, like a 502
      upstreamStatus: status >= 200 && status < 300 ? 502 : status,
    };
    // a 503 page with Retry-After (maintenance, an overloaded gateway) still says when to come back
    if (retryAfter && retryable(status)) failure.retryAfter = retryAfter;
    return failure;
  }
  const effective = status >= 200 && status < 300 ? (parsed.impliedStatus ?? 502) : status;
  return failureFromParsed(slug, parsed, effective, credential, retryAfter);
}

/** The failure for an error the upstream described (HTTP body or stream error event). */
export function failureFromParsed(
  slug: string,
  parsed: ParsedError,
  status: number,
  credential: string | undefined,
  retryAfter?: string,
): UpstreamFailure {
  const contextLength = CONTEXT_RE.test(parsed.kind) || CONTEXT_RE.test(parsed.message);
  // OpenAI's and Google's used-up quota comes as a 429: its client must not retry it as one
  const told = parsed.quotaUsedUp ? 402 : status;
  // llama.cpp answers an overflowing prompt with 500 "Context size has been exceeded.": a client
  // retries a 5xx, and the same prompt cannot fit on the next try either
  const requestCaused = told >= 500 && (contextLength || INPUT_NOT_TAKEN_RE.test(parsed.message));
  const failure: UpstreamFailure = {
    status: requestCaused ? 400 : told,
    code: contextLength ? 'context_length_exceeded' : codeForStatus(requestCaused ? 400 : told),
    message: redactSecret(`${slug}: ${parsed.message || `upstream answered HTTP ${status}`}`, credential),
    upstreamStatus: status,
  };
  if (parsed.param) failure.param = parsed.param;
  // structured words of the provider's, passed on as they came unless they hold the credential
  if (parsed.details && keepsNoSecret(parsed.details, credential)) failure.details = parsed.details;
  if (contextLength) failure.contextLength = true;
  if (retryAfter && retryable(told)) failure.retryAfter = retryAfter;
  return withBillingNoRetry(failure);
}

function keepsNoSecret(details: Record<string, unknown>, credential: string | undefined): boolean {
  const text = JSON.stringify(details);
  return redactSecret(text, credential) === text;
}

/**
 * No credit or quota left (upstream_billing) comes back when the plan is topped up or the day
 * ends, not after a client's backoff: `x-should-retry: false` says so to the official SDKs, which
 * follow it over any status. A group still moves on to its next target (fallback.ts).
 */
function withBillingNoRetry(failure: UpstreamFailure): UpstreamFailure {
  if (failure.code === 'upstream_billing') failure.shouldRetry = 'false';
  return failure;
}

/**
 * An error the upstream put in its stream, as its decoder read it, classified as the same words in
 * an HTTP error body would be: a prompt too long is the request's (context_length_exceeded, 400,
 * which groups may fall back on), whatever status the event implied; any other keeps the decoder's
 * status and code. The message gets the slug and loses the credential.
 */
export function streamEventFailure(slug: string, e: HubError, credential: string | undefined, answerHeaders?: AnswerHeaders, answerDate?: string | string[]): UpstreamFailure {
  const described = failureFromParsed(slug, { message: e.message, kind: e.code }, e.status, credential);
  if (described.contextLength) {
    if (e.param !== undefined) described.param = e.param;
    return described;
  }
  const failure: UpstreamFailure = withBillingNoRetry({ status: e.status, code: e.code, message: described.message, upstreamStatus: e.status });
  if (e.param !== undefined) failure.param = e.param;
  return withStreamWait(failure, { bodyHeaders: bodyLimitHeaders(e.limitHeaders), statedWaitMs: e.statedWaitMs }, answerHeaders, answerDate);
}

/** What an error event's own body says of its wait: the limits' headers it repeats (OpenRouter's), or the wait it states (Google's RetryInfo). */
export interface EventWait {
  bodyHeaders?: Record<string, string> | undefined;
  statedWaitMs?: number | undefined;
}

/**
 * An error event inside a stream goes out after the 200 and its headers: the wait it states
 * (Google's RetryInfo), else the one its limits' reset implies (the headers its body repeats:
 * OpenRouter's; for a rate limit whose body repeats none, the reset headers of the stream's 200,
 * `answerHeaders`: Anthropic's), is advice the failure carries, for the HTTP answer it becomes
 * when nothing went out yet, and words in its message for when the stream is under way
 * (withWaitInMessage); beyond a wait to sit out, when the limit resets (notBeforeReset). A
 * message that names its wait keeps its own. Reset times are read on the upstream's clock, the
 * `Date` of the stream's 200 (`answerDate`), as an error answer's are.
 */
export function withStreamWait(failure: UpstreamFailure, own: EventWait, answerHeaders?: AnswerHeaders, answerDate?: string | string[]): UpstreamFailure {
  if (failure.contextLength || namesWait(failure.message)) return failure;
  const now = Date.now();
  const usedUp = quotaBackAtStatedTime(failure, own.statedWaitMs, now);
  if (usedUp) return usedUp;
  if (!retryable(failure.upstreamStatus)) return failure;
  let wait = own.statedWaitMs;
  if (wait === undefined) {
    const limitHeaders = own.bodyHeaders ?? (answerHeaders !== undefined && failure.upstreamStatus === 429 ? streamLimitHeaders(answerHeaders, failure.message) : undefined);
    if (!limitHeaders) return failure;
    wait = resetWaitMs(limitHeaders, failure.upstreamStatus, upstreamClock(Array.isArray(answerDate) ? answerDate[0] : answerDate, now));
  }
  if (wait === undefined) return failure;
  if (beyondAdvice(wait)) return notBeforeReset(failure, wait, now);
  return withWaitInMessage(Object.assign(failure, waitAdvice(wait)));
}

/**
 * A failure that reaches the client after the stream's 200 went out, where no Retry-After can: its
 * wait in the message, worded as OpenAI words it ("Please try again in 20s.", which Codex reads on
 * a rate limit). Unchanged without a wait, when it says not to retry (its message says when the
 * limit resets), or when the message already names one.
 */
export function withWaitInMessage(failure: UpstreamFailure): UpstreamFailure {
  if (failure.shouldRetry === 'false' || namesWait(failure.message)) return failure;
  const ms = advisedWaitMs(failure.retryAfter, failure.retryAfterMs, Date.now());
  if (ms === undefined) return failure;
  const wait = ms < 1000 ? `${Math.ceil(ms)}ms` : `${Math.ceil(ms / 1000)}s`;
  return { ...failure, message: `${failure.message.replace(/[\s.]+$/, '')}. Please try again in ${wait}.` };
}

function namesWait(message: string): boolean {
  return /try again in/i.test(message);
}

/** A failure without an HTTP answer (connection refused, reset, timeout). */
export function transportFailure(slug: string, code: string, message: string, credential: string | undefined): UpstreamFailure {
  const timeout = code === 'upstream_timeout';
  return {
    status: timeout ? 504 : 502,
    code: code === 'upstream_unreachable' || timeout || code === 'upstream_reset' || code === 'upstream_invalid_response' ? code : 'upstream_unreachable',
    message: redactSecret(`${slug}: ${message}`, credential),
    upstreamStatus: 0,
  };
}

/**
 * A 2xx JSON body that is really an error: Anthropic `type:"error"`, an `error` object with no
 * answer fields beside it, or a Google-style array of errors.
 */
export function isErrorBody(json: unknown): boolean {
  if (Array.isArray(json)) return json.length > 0 && isErrorBody(json[0]);
  if (typeof json !== 'object' || json === null) return false;
  const o = json as Record<string, unknown>;
  if (o.type === 'error') return true;
  const err = o.error;
  if (err === null || err === undefined || err === false) return false;
  return o.choices === undefined && o.output === undefined && o.content === undefined;
}

/** The parsed error, or undefined when the body is not JSON (HTML error pages and the like). */
export function parseErrorBody(body: Buffer): ParsedError | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  return describeErrorJson(json);
}

export function describeErrorJson(json: unknown): ParsedError | undefined {
  if (Array.isArray(json)) json = json[0];
  if (typeof json !== 'object' || json === null) {
    return typeof json === 'string' ? { message: json, kind: '' } : undefined;
  }
  const o = json as Record<string, unknown>;
  const err = o.error;
  if (typeof err === 'string') return { message: err, kind: str(o.type) };
  if (typeof err === 'object' && err !== null) {
    const e = err as Record<string, unknown>;
    let message = str(e.message);
    const metadata = e.metadata as Record<string, unknown> | undefined;
    // OpenRouter wraps the provider's own error: "Provider returned error" + metadata.raw
    if (metadata && typeof metadata === 'object') {
      const raw = typeof metadata.raw === 'string' ? metadata.raw : undefined;
      const provider = typeof metadata.provider_name === 'string' ? metadata.provider_name : undefined;
      if (raw) message = `${message}${provider ? ` (${provider})` : ''}: ${truncate(raw, 500)}`;
    }
    const kind = [str(e.type), str(e.status), typeof e.code === 'string' ? e.code : ''].filter(Boolean).join(' ');
    const parsed: ParsedError = { message, kind };
    if (quotaUsedUp(e)) parsed.quotaUsedUp = true;
    const wait = googleWaitMs(e, Date.now());
    if (wait !== undefined) parsed.statedWaitMs = wait;
    const limitHeaders = errorBodyLimitHeaders(o);
    if (limitHeaders) parsed.limitHeaders = limitHeaders;
    const implied = typeof e.code === 'number' ? e.code : statusForKind(kind);
    if (implied !== undefined && implied >= 400 && implied <= 599) parsed.impliedStatus = implied;
    if (typeof e.param === 'string') parsed.param = e.param;
    if (o.type === 'error' && typeof e.details === 'object' && e.details !== null && !Array.isArray(e.details)) parsed.details = e.details as Record<string, unknown>;
    return parsed;
  }
  const listed = validationDetail(o.detail) ?? (typeof o.message === 'object' && o.message !== null ? validationDetail((o.message as Record<string, unknown>).detail) : undefined);
  if (listed) return { message: listed, kind: str(o.type) };
  if (typeof o.detail === 'string') return { message: o.detail, kind: '' };
  if (typeof o.message === 'string') return { message: o.message, kind: str(o.type) || str(o.code) };
  return undefined;
}

/**
 * A pydantic validation list (FastAPI servers, Mistral: `detail: [{loc: ["body", "store"], msg}]`,
 * at the top or under `message`) as one line: "body.store: Extra inputs are not permitted; …".
 */
function validationDetail(detail: unknown): string | undefined {
  if (!Array.isArray(detail) || detail.length === 0) return undefined;
  const lines: string[] = [];
  for (const d of detail.slice(0, 5)) {
    if (typeof d !== 'object' || d === null) continue;
    const { loc, msg } = d as Record<string, unknown>;
    if (typeof msg !== 'string') continue;
    lines.push(Array.isArray(loc) && loc.length > 0 ? `${loc.join('.')}: ${msg}` : msg);
  }
  return lines.length > 0 ? lines.join('; ') : undefined;
}

/**
 * Status for the error words of OpenAI, Anthropic and Google (used when a 200 carries the error).
 * An overload keeps its upstream's own status, as an HTTP answer would have: OpenAI's
 * server_is_overloaded (type service_unavailable_error) is its 503, Anthropic's overloaded_error 529.
 */
function statusForKind(kind: string): number | undefined {
  const k = kind.toLowerCase();
  if (/server_is_overloaded/.test(k)) return 503;
  if (/overloaded/.test(k)) return 529;
  if (/insufficient_quota/.test(k)) return 402;
  if (/rate_limit|resource_exhausted|quota|slow_down/.test(k)) return 429;
  if (/authentication|unauthenticated|invalid_api_key/.test(k)) return 401;
  if (/permission|forbidden/.test(k)) return 403;
  if (/not_found/.test(k)) return 404;
  if (/timeout|deadline/.test(k)) return 504;
  if (/unavailable/.test(k)) return 503;
  if (/invalid_request|invalid_argument|failed_precondition/.test(k)) return 400;
  if (/server_error|api_error|internal/.test(k)) return 500;
  return undefined;
}

function describeNonJson(body: Buffer, contentType: string | undefined): string {
  if (body.length === 0) return 'an empty body';
  const text = body.toString('utf8', 0, Math.min(body.length, 4096));
  const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text);
  if (title) return `an HTML page ("${title[1]!.trim()}")`;
  if (/^\s*</.test(text) || /html/i.test(contentType ?? '')) return 'an HTML page';
  return `a non-JSON body: ${JSON.stringify(truncate(text.replace(/\s+/g, ' ').trim(), 200))}`;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/**
 * The error a streamed event carries, if it is an error event of its dialect: Chat
 * `{"error":{…}}` (OpenAI, OpenRouter), Messages `event: error`, Responses `error` and
 * `response.failed`.
 */
export function describeStreamError(event: unknown, dialect: 'chat' | 'responses' | 'messages'): ParsedError | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const o = event as Record<string, unknown>;
  if (dialect === 'responses') {
    if (o.type === 'error') {
      // the documented shape is flat; OpenAI's overload comes nested ({error:{type,code,message}})
      const e = typeof o.error === 'object' && o.error !== null ? (o.error as Record<string, unknown>) : o;
      const code = str(e.code) || str(e.type);
      const parsed: ParsedError = { message: str(e.message), kind: code };
      const implied = statusForKind(code);
      if (implied !== undefined) parsed.impliedStatus = implied;
      return parsed;
    }
    if (o.type === 'response.failed') {
      const err = (o.response as Record<string, unknown> | undefined)?.error as Record<string, unknown> | undefined;
      const code = str(err?.code);
      const parsed: ParsedError = { message: str(err?.message) || 'response failed', kind: code };
      const implied = statusForKind(code);
      if (implied !== undefined) parsed.impliedStatus = implied;
      return parsed;
    }
    return undefined;
  }
  if (dialect === 'messages' && o.type !== 'error') return undefined;
  if (o.error === undefined || o.error === null) return undefined;
  return describeErrorJson(o);
}

/**
 * An upstream's error answer as our failure, its own headers read for the content type and every
 * piece of retry advice. `parsed`: the body's error as already read (undefined: not JSON, or no
 * error shape; see failureOfBody).
 *
 * The wait: the upstream's own retry-after(-ms), else the one its body states (Google's RetryInfo:
 * Gemini sends no Retry-After), else the one its rate-limit reset headers imply (the answer's real
 * headers over those its body repeats), absolute times read on its clock
 * (upstreamClock). A wait to sit out becomes retry-after and retry-after-ms when the upstream sent
 * none; a longer one says not to retry at all (notBeforeReset).
 */
export function failureOfAnswer(
  slug: string,
  status: number,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: Buffer,
  parsed: ParsedError | undefined,
  credential: string | undefined,
): UpstreamFailure {
  if (isRedirect(status)) return redirectFailure(slug, status, upstreamHeader(headers, 'location'), credential);
  const failure = failureOfBody(slug, status, body, parsed, upstreamHeader(headers, 'content-type'), credential, upstreamHeader(headers, 'retry-after'));
  withRetryAdvice(failure, upstreamHeader(headers, 'retry-after-ms'), upstreamHeader(headers, 'x-should-retry'));
  if (failure.contextLength) return failure;
  const now = Date.now();
  const usedUp = quotaBackAtStatedTime(failure, parsed?.statedWaitMs, now);
  if (usedUp) return usedUp;
  // a prompt too long is answered as a 400 whatever the status, a used-up quota as a 402: nothing to wait for
  if (!retryable(failure.status)) return failure;
  const clock = upstreamClock(upstreamHeader(headers, 'date'), now);
  const own = failure.retryAfter !== undefined || failure.retryAfterMs !== undefined;
  const wait = own
    ? advisedWaitMs(failure.retryAfter, failure.retryAfterMs, clock)
    : (parsed?.statedWaitMs ?? resetWaitMs(parsed?.limitHeaders ? { ...parsed.limitHeaders, ...headers } : headers, failure.upstreamStatus, clock));
  if (wait === undefined) return failure;
  if (beyondAdvice(wait)) return notBeforeReset(failure, wait, now);
  if (!own) Object.assign(failure, waitAdvice(wait));
  return failure;
}

/**
 * A used-up quota that comes back at the time its body states (Gemini's per-day one, at midnight
 * Pacific), beyond a wait to sit out: not before then (notBeforeReset). Undefined for any other
 * failure, which the caller's retry advice covers.
 */
function quotaBackAtStatedTime(failure: UpstreamFailure, statedWaitMs: number | undefined, now: number): UpstreamFailure | undefined {
  if (failure.code !== 'upstream_billing' || statedWaitMs === undefined || !beyondAdvice(statedWaitMs)) return undefined;
  return notBeforeReset(failure, statedWaitMs, now);
}

/**
 * A limit that resets beyond the longest wait to sit out: `x-should-retry: false`, the message
 * saying when it resets, and retry-after(-ms) naming that time (in seconds, whatever form the
 * upstream's took), for a client that schedules by them rather than retrying. A later reset than
 * LONGEST_RESET_MS (one in 2099) is read as that.
 */
function notBeforeReset(failure: UpstreamFailure, resetMs: number, now: number): UpstreamFailure {
  const waitMs = Math.min(resetMs, LONGEST_RESET_MS);
  failure.shouldRetry = 'false';
  failure.resetsAt = now + waitMs;
  Object.assign(failure, waitAdvice(waitMs));
  failure.message = `${failure.message.replace(/[\s.]+$/, '')}; ${farResetWords(failure.upstreamStatus, waitMs, now)}.`;
  return failure;
}

/** A failure's retry advice as the headers the client reads it from, added to `into`. */
export function retryAdviceHeaders(failure: UpstreamFailure, into: OutgoingHttpHeaders = {}): OutgoingHttpHeaders {
  if (failure.retryAfter) into['retry-after'] = failure.retryAfter;
  if (failure.retryAfterMs) into['retry-after-ms'] = failure.retryAfterMs;
  if (failure.shouldRetry) into['x-should-retry'] = failure.shouldRetry;
  return into;
}

/**
 * The upstream's other retry advice, carried as it is (see UpstreamFailure) — but for an
 * `x-should-retry` where ours is set already: a used-up quota's `false` (withBillingNoRetry) stands
 * over an upstream's `true`, which a gateway may send for every 429 while the body says the quota is gone.
 */
export function withRetryAdvice(failure: UpstreamFailure, retryAfterMs: string | undefined, shouldRetry: string | undefined): UpstreamFailure {
  if (retryAfterMs && retryable(failure.status)) failure.retryAfterMs = retryAfterMs;
  if ((shouldRetry === 'true' || shouldRetry === 'false') && failure.shouldRetry === undefined) failure.shouldRetry = shouldRetry;
  return failure;
}
