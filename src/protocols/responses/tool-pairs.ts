/**
 * Every function_call_output answers an earlier function_call, and every function_call is
 * answered — except calls in the trailing assistant turn (nothing but calls and reasoning after
 * them). Checked here because every target rejects broken pairs, each with a different message.
 * custom_tool_call(_output) items are hub function calls (outputs) too: they pair the same way.
 */
import type { Item } from '../hub.js';
import { badRequest } from '../errors.js';

export function checkToolPairs(items: readonly Item[], positions: readonly number[]): void {
  const calls = new Map<string, number>();
  const answered = new Set<string>();
  items.forEach((item, i) => {
    const param = `input[${positions[i] ?? i}]`;
    if (item.type === 'function_call') {
      if (calls.has(item.callId)) {
        throw badRequest('invalid_tool_call', `${param}: call_id ${JSON.stringify(item.callId)} is used by more than one function_call.`, `${param}.call_id`);
      }
      calls.set(item.callId, i);
    } else if (item.type === 'function_call_output') {
      if (!calls.has(item.callId)) {
        throw badRequest(
          'invalid_tool_call',
          `${param}: no function_call with call_id ${JSON.stringify(item.callId)} comes before this function_call_output.`,
          `${param}.call_id`,
        );
      }
      answered.add(item.callId);
    }
  });
  const trailingFrom = trailingTurnStart(items);
  for (const [callId, i] of calls) {
    if (!answered.has(callId) && i < trailingFrom) {
      const param = `input[${positions[i] ?? i}]`;
      throw badRequest(
        'invalid_tool_call',
        `${param}: no function_call_output for call_id ${JSON.stringify(callId)}; send the output of every function call.`,
        `${param}.call_id`,
      );
    }
  }
}

/** Index where the final run of function_call/reasoning items starts (items.length if none). */
function trailingTurnStart(items: readonly Item[]): number {
  let start = items.length;
  while (start > 0) {
    const type = items[start - 1]!.type;
    if (type !== 'function_call' && type !== 'reasoning') break;
    start--;
  }
  return start;
}
