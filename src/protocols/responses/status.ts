/**
 * Responses `status` + `incomplete_details` ↔ hub stop reasons (PROTOCOLS.md §6.8). Responses has
 * no "tool_calls" finish reason: a turn that ends in calls is `completed` with function_call items.
 */
import type { StopReason } from '../hub.js';
import { responseFailedCode } from '../errors.js';
import { codeForStatus } from '../upstream-codes.js';

export interface OutputFacts {
  hasFunctionCall: boolean;
  hasText: boolean;
  hasRefusal: boolean;
}

export function stopReasonFrom(status: string | undefined, incompleteReason: string | undefined, facts: OutputFacts): StopReason {
  if (status === 'incomplete') return incompleteReason === 'content_filter' ? 'refusal' : 'max_tokens';
  if (facts.hasFunctionCall) return 'tool_use';
  if (facts.hasRefusal && !facts.hasText) return 'refusal';
  return 'end_turn';
}

export type TerminalStatus =
  | { status: 'completed'; incomplete_details: null }
  | { status: 'incomplete'; incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } };

/**
 * A refusal shown as a refusal part is a completed answer; a refusal without one (Anthropic's
 * `refusal` stop with partial text) is reported as cut short by the content filter.
 * `pause_turn` is not finished either: the closest honest Responses word is incomplete.
 */
export function statusFor(stop: StopReason, hasRefusalPart: boolean): TerminalStatus {
  switch (stop) {
    case 'max_tokens':
    case 'context_window_exceeded':
    case 'pause_turn':
      return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
    case 'refusal':
      return hasRefusalPart
        ? { status: 'completed', incomplete_details: null }
        : { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
    default:
      return { status: 'completed', incomplete_details: null };
  }
}

/** HTTP status for an upstream Responses error code (response.error.code / error event code). */
export function httpStatusForErrorCode(code: string | undefined): number {
  switch (code) {
    case 'rate_limit_exceeded':
      return 429;
    // a quota used up, not a rate limit (quota-used-up.ts)
    case 'insufficient_quota':
      return 402;
    case 'server_error':
      return 500;
    // OpenAI's overload inside a stream (type service_unavailable_error): its 503
    case 'server_is_overloaded':
      return 503;
    // OpenAI's traffic that grew too fast (type rate_limit_error): a 429 since 2025, a 503 before
    case 'slow_down':
      return 429;
    case 'vector_store_timeout':
      return 504;
    case 'model_not_found':
      return 404;
    default:
      if (code && /^(invalid_|context_length|bio_policy|unsupported_)/.test(code)) return 400;
      return 502;
  }
}

/**
 * OpenAI's own failed-response codes on which Codex ends the turn although a retry is what they
 * call for: its overload (`server_is_overloaded`, "Selected model is at capacity") and `slow_down`
 * (CodexErr::ServerOverloaded, not retried). Any other code it acts on rightly: it retries
 * `rate_limit_exceeded` after the wait in the message, and stops on `insufficient_quota`,
 * `context_length_exceeded`, `usage_not_included`, `invalid_prompt` and `cyber_policy`.
 */
const CODEX_GIVES_UP = new Set(['server_is_overloaded', 'slow_down']);

/**
 * The code a passthrough stream's `response.failed` goes out with instead of OpenAI's, when Codex
 * would give up on OpenAI's: the one a converted stream's failed response gets for it (responseFailedCode).
 */
export function failedCodeForCodex(code: string): string | undefined {
  if (!CODEX_GIVES_UP.has(code)) return undefined;
  const status = httpStatusForErrorCode(code);
  return responseFailedCode({ status, code: codeForStatus(status), message: '' });
}
