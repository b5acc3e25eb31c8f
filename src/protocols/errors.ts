/**
 * Errors as each dialect renders them. A ProtocolError is a clean, expected 4xx/5xx with a
 * stable svc-proxy `code`; anything else thrown by a codec is a bug.
 */
import type { HubError } from './hub.js';

export class ProtocolError extends Error implements HubError {
  readonly status: number;
  readonly code: string;
  readonly param?: string;
  readonly details?: Readonly<Record<string, unknown>>;
  constructor(status: number, code: string, message: string, param?: string, details?: Readonly<Record<string, unknown>>) {
    super(message);
    this.name = 'ProtocolError';
    this.status = status;
    this.code = code;
    if (param !== undefined) this.param = param;
    if (details !== undefined) this.details = details;
  }
  toHub(): HubError {
    return { status: this.status, code: this.code, message: this.message, ...(this.param ? { param: this.param } : {}), ...(this.details ? { details: this.details } : {}) };
  }
}

/** Shorthand for the common case: the client's request is wrong. */
export function badRequest(code: string, message: string, param?: string): ProtocolError {
  return new ProtocolError(400, code, message, param);
}

/** Protocol A (OpenAI) error `type` for a status. */
export function openaiErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_exceeded';
  if (status === 402) return 'insufficient_quota';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/**
 * The `code` of a failed Responses answer (`response.failed`, whose type lists OpenAI's codes),
 * chosen by what Codex does with it: OpenAI's own where that makes Codex act right —
 * `rate_limit_exceeded`, on which it reads the wait from the message ("Please try again in 1.4s"),
 * `insufficient_quota`, on which it stops instead of retrying — else ours, which it retries. An
 * overload keeps ours: on OpenAI's `server_is_overloaded` Codex ends the turn ("Selected model is
 * at capacity"). The `error` event keeps ours.
 */
export function responseFailedCode(err: HubError): string {
  if (err.code === 'upstream_rate_limited') return 'rate_limit_exceeded';
  return err.code === 'upstream_billing' ? 'insufficient_quota' : err.code;
}

/** Protocol B (Anthropic) error `type` for a status. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
    case 422:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 409:
      return 'conflict_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/** `{"error":{"message","type","param","code"}}` */
export function openaiErrorBody(err: HubError): { error: { message: string; type: string; param: string | null; code: string } } {
  return { error: { message: err.message, type: openaiErrorType(err.status), param: err.param ?? null, code: err.code } };
}

/** `{"type":"error","error":{"type","message","code","details"?}}` */
export function anthropicErrorBody(err: HubError): { type: 'error'; error: { type: string; message: string; code: string; details?: Readonly<Record<string, unknown>> } } {
  const error = { type: anthropicErrorType(err.status), message: anthropicMessage(err), code: err.code };
  return { type: 'error', error: err.details ? { ...error, details: err.details } : error };
}

/**
 * A prompt over the model's context reads as Anthropic says it ("prompt is too long: …"): Claude
 * Code compacts the conversation on that wording, and another model's or server's wording would
 * leave the session stuck on the same error.
 */
function anthropicMessage(err: HubError): string {
  if (err.code !== 'context_length_exceeded' || /prompt is too long/i.test(err.message)) return err.message;
  return `prompt is too long: ${err.message}`;
}
