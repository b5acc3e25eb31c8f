/**
 * Every function_call_output answers an earlier function_call, and every function_call is
 * answered — except calls in the trailing assistant turn (nothing but calls and reasoning after
 * them). Checked here because every target rejects broken pairs, each with a different message.
 * custom_tool_call(_output) items are hub function calls (outputs) too: they pair the same way.
 *
 * A call reusing the id of an earlier, answered call (a model that numbers calls per turn, such as
 * Kimi) is a new call: it and the outputs after it get a fresh hub id (call-id-reuse.ts).
 */
import type { Item } from '../hub.js';
import { badRequest } from '../errors.js';
import { CallIdReuse } from '../call-id-reuse.js';

export function checkToolPairs(items: readonly Item[], positions: readonly number[]): void {
  const calls = new Map<string, { index: number; clientId: string }>(); // by hub id
  const answered = new Set<string>(); // hub ids
  const latest = new Map<string, string>(); // client id → hub id of its latest call
  const hubIds = new CallIdReuse();
  items.forEach((item, i) => {
    const param = `input[${positions[i] ?? i}]`;
    if (item.type === 'function_call') {
      const earlier = latest.get(item.callId);
      if (earlier !== undefined && !answered.has(earlier)) {
        throw badRequest('invalid_tool_call', `${param}: call_id ${JSON.stringify(item.callId)} is used by more than one function_call.`, `${param}.call_id`);
      }
      const hubId = hubIds.idFor(item.callId);
      latest.set(item.callId, hubId);
      calls.set(hubId, { index: i, clientId: item.callId });
      item.callId = hubId;
    } else if (item.type === 'function_call_output') {
      const hubId = latest.get(item.callId);
      if (hubId === undefined) {
        throw badRequest(
          'invalid_tool_call',
          `${param}: no function_call with call_id ${JSON.stringify(item.callId)} comes before this function_call_output.`,
          `${param}.call_id`,
        );
      }
      item.callId = hubId;
      answered.add(hubId);
    }
  });
  const trailingFrom = trailingTurnStart(items);
  for (const [hubId, { index: i, clientId }] of calls) {
    if (!answered.has(hubId) && i < trailingFrom) {
      const param = `input[${positions[i] ?? i}]`;
      throw badRequest(
        'invalid_tool_call',
        `${param}: no function_call_output for call_id ${JSON.stringify(clientId)}; send the output of every function call.`,
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
