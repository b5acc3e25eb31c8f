/** Chat finish_reason ↔ hub StopReason (PROTOCOLS.md §6.8). */
import type { StopReason } from '../hub.js';

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** Anthropic-style native reasons (OpenRouter `native_finish_reason`) that say more than `finish_reason`. */
const NATIVE: Readonly<Record<string, StopReason>> = {
  stop_sequence: 'stop_sequence',
  pause_turn: 'pause_turn',
  refusal: 'refusal',
  model_context_window_exceeded: 'context_window_exceeded',
};

/**
 * vLLM and SGLang end a request their engine dropped (shutdown, sleep mode, scale-down, an abort)
 * with finish_reason "abort", not in OpenAI's set, after a 200 and before `[DONE]`
 * (vllm-project/vllm#57082): the answer is cut short, so it is a failure, not an ended turn.
 */
export const ABORTED = 'abort';
export const ABORTED_MESSAGE = 'The upstream server aborted the answer before it was complete (finish_reason "abort": it was stopped, paused or dropped the request).';

/**
 * Hub stop reason for an upstream choice. Some servers (Gemini compat, older vLLM) report `stop`
 * for a turn that ended in tool calls; the calls are what matters to the client.
 */
export function stopReasonFromChat(finish: unknown, native: unknown, hasToolCalls: boolean): StopReason {
  if (typeof native === 'string') {
    const key = native.toLowerCase();
    // own keys only: "constructor" from an upstream is not a stop reason
    const refined = Object.hasOwn(NATIVE, key) ? NATIVE[key] : undefined;
    if (refined) return refined;
  }
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return hasToolCalls ? 'tool_use' : 'end_turn';
  }
}

/**
 * An answer that is only a refusal (OpenAI's `refusal`, which comes with finish_reason `stop`) is a
 * refused turn, as a Responses upstream's lone refusal part is (responses/status.ts): a Messages
 * client reads it from `stop_reason: "refusal"`.
 */
export function refusedTurn(reason: StopReason, hasRefusal: boolean, hasText: boolean): StopReason {
  return reason === 'end_turn' && hasRefusal && !hasText ? 'refusal' : reason;
}

/**
 * The turn ended normally: not cut off (max tokens, a filter) and no tool call. A matched stop
 * sequence counts, as Chat reports it as `stop` too.
 */
export function endedOwnTurn(reason: StopReason): boolean {
  return reason === 'end_turn' || reason === 'stop_sequence';
}

/** Chat finish_reason for the client. A turn that produced tool calls always says so. */
export function chatFinishReason(reason: StopReason, hadToolCalls: boolean): ChatFinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return hadToolCalls ? 'tool_calls' : 'stop';
  }
}

/** The same for a client of the deprecated `functions`, whose call ends the turn as `function_call`. */
export function legacyFinishReason(reason: ChatFinishReason): ChatFinishReason {
  return reason === 'tool_calls' ? 'function_call' : reason;
}
