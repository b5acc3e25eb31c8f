/**
 * Error objects a Chat upstream puts in a body or a stream chunk: OpenAI `{message,type,code}`
 * (string code), OpenRouter `{code:<HTTP status>, message, metadata}`, Google `{code, message, status}`.
 * The status drives the client-facing error type, so we recover it from whichever field has it.
 */
import type { HubError } from '../hub.js';
import { isRecord, num, str } from './guards.js';
import { codeForStatus } from '../upstream-codes.js';
import { quotaUsedUp } from '../quota-used-up.js';
import { googleRetryDelayMs, googleWaitMs } from '../google-retry-info.js';

/** OpenAI/Anthropic error `type` → the HTTP status it stands for. */
const STATUS_BY_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  invalid_api_key: 401,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_exceeded: 429,
  rate_limit_error: 429,
  // a quota used up, not a rate limit (quota-used-up.ts)
  insufficient_quota: 402,
  server_error: 500,
  api_error: 500,
  overloaded_error: 503,
  timeout_error: 504,
};

function statusByName(name: string | undefined): number | undefined {
  return name !== undefined && Object.hasOwn(STATUS_BY_TYPE, name) ? STATUS_BY_TYPE[name] : undefined;
}

function isStatus(n: number | undefined): n is number {
  return n !== undefined && Number.isInteger(n) && n >= 400 && n <= 599;
}

/** `now`: the clock a wait is counted from (DecodeOptions.now); a per-day quota's reset needs it. */
export function upstreamError(err: unknown, fallbackMessage: string, now?: () => number): HubError {
  if (!isRecord(err)) return { status: 502, code: 'upstream_error', message: typeof err === 'string' && err ? err : fallbackMessage };
  const numeric = num(err.code) ?? num(err.status);
  // OpenAI's rate-limit errors carry the class in a string `code` ("rate_limit_exceeded") and a
  // scope in `type` ("requests", "tokens"): either field may name it.
  const byType = statusByName(str(err.type)) ?? statusByName(str(err.code));
  const status = quotaUsedUp(err) ? 402 : isStatus(numeric) ? numeric : (byType ?? 502);
  const error: HubError = { status, code: codeForStatus(status), message: str(err.message) || fallbackMessage };
  const headers = isRecord(err.metadata) ? err.metadata.headers : undefined;
  if (isRecord(headers)) error.limitHeaders = headers;
  const wait = now ? googleWaitMs(err, now()) : googleRetryDelayMs(err);
  if (wait !== undefined) error.statedWaitMs = wait;
  return error;
}
