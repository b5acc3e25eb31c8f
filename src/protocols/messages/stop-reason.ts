/**
 * Stop reasons and error types between Anthropic's wire names and the hub (PROTOCOLS.md §6.8, §4.4).
 */
import type { StopReason as MessagesStopReason } from '@anthropic-ai/sdk/resources/messages/messages';
import type { StopReason } from '../hub.js';

export function hubStopReason(v: unknown): StopReason {
  switch (v) {
    case 'end_turn':
    case 'stop_sequence':
    case 'max_tokens':
    case 'tool_use':
    case 'refusal':
    case 'pause_turn':
      return v;
    case 'model_context_window_exceeded':
      return 'context_window_exceeded';
    default:
      // null or a reason newer than this code: the turn ended normally as far as we can tell.
      return 'end_turn';
  }
}

export function messagesStopReason(r: StopReason): MessagesStopReason {
  return r === 'context_window_exceeded' ? 'model_context_window_exceeded' : r;
}

const STATUS_BY_ERROR_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** HTTP status for an Anthropic `error.type` (an unknown type is an upstream failure: 502). */
export function statusForErrorType(type: unknown): number {
  return (typeof type === 'string' && Object.hasOwn(STATUS_BY_ERROR_TYPE, type) ? STATUS_BY_ERROR_TYPE[type] : undefined) ?? 502;
}
