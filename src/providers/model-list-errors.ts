/**
 * How a model list fetch fails, and each failure as a ProviderListFailure: the status and code
 * a generation failing the same way gets (codeForStatus, UpstreamError's codes), so a client
 * asking for a model of that provider learns what a request to it would meet.
 */
import { codeForStatus } from '../protocols/upstream-codes.js';
import { REFUSED_CREDENTIAL, type ProviderListFailure } from './model-list-failure.js';
import { withRefusedHint } from './refused-connection-hint.js';
import type { ResolvedProvider } from './types.js';
import { UpstreamError } from './upstream-error.js';
import { isRedirect, redirectReason, UPSTREAM_REDIRECT } from './redirect-answer.js';
import { answerWaitMs, errorBodyLimitHeaders, type AnswerHeaders } from './retry-wait.js';

export class ListTimedOut extends Error {
  constructor(readonly ms: number) {
    super(`no models list within ${ms} ms`);
  }
}

/**
 * A models list answered with an error status; `retryAt` (epoch ms): when it said to try again, if
 * it did; `location`: where a redirect pointed.
 */
export class ListRefused extends Error {
  constructor(
    readonly status: number,
    readonly retryAt?: number,
    readonly location?: string,
  ) {
    super(`models list answered ${status}`);
  }
}

/**
 * A models list's error answer, with when its retry-after or its rate-limit reset headers say to
 * come back: those of its headers, or else those its body repeats (OpenRouter's
 * `error.metadata.headers`).
 */
export function listRefusal(status: number, headers: AnswerHeaders, body: string, now = Date.now()): ListRefused {
  const repeated = errorBodyLimitHeaders(jsonOrUndefined(body));
  const wait = answerWaitMs(repeated ? { ...repeated, ...headers } : headers, status, now);
  const location = isRedirect(status) ? headers.location : undefined;
  return new ListRefused(status, wait === undefined ? undefined : now + wait, Array.isArray(location) ? location[0] : location);
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A 2xx whose body is JSON but not a list's object. */
export class ListNotAnObject extends Error {
  constructor() {
    super('the answer was not a JSON object');
  }
}

const INVALID = 'upstream_invalid_response';

export function listFailureOf(err: unknown, target: ResolvedProvider, latencyMs: number): ProviderListFailure {
  const failure = (status: number, code: string, upstreamStatus: number, reason: string): ProviderListFailure => ({
    provider: target.slug,
    reason: withRefusedHint(reason, err, target),
    status,
    code,
    upstreamStatus,
    latencyMs,
  });
  if (err instanceof ListRefused) {
    const s = err.status;
    if (s === 401 || s === 403) return failure(s, codeForStatus(s), s, `${REFUSED_CREDENTIAL} (${s})`);
    // a redirect is no list, and named as a generation's is (its upstream status the 3xx, as there)
    if (isRedirect(s)) return failure(502, UPSTREAM_REDIRECT, s, redirectReason(s, err.location));
    // an odd 1xx is no list and no error status a client could act on
    if (s < 400 || s > 599) return failure(502, INVALID, 502, `the provider answered ${s}`);
    const refused = failure(s, codeForStatus(s), s, `the provider answered ${s}`);
    if (err.retryAt !== undefined) refused.retryAt = err.retryAt;
    return refused;
  }
  if (err instanceof ListTimedOut) return failure(504, 'upstream_timeout', 0, `no answer within ${err.ms} ms`);
  if (err instanceof SyntaxError) return failure(502, INVALID, 502, 'the answer was not JSON');
  if (err instanceof ListNotAnObject) return failure(502, INVALID, 502, err.message);
  if (err instanceof UpstreamError) {
    // nothing aborts a list fetch but its own timeout (ListTimedOut): an 'aborted' is no answer all the same
    const code = err.code === 'aborted' ? 'upstream_unreachable' : err.code;
    return failure(code === 'upstream_timeout' ? 504 : 502, code, 0, err.message);
  }
  return failure(502, 'upstream_error', 0, err instanceof Error ? err.message : String(err));
}
