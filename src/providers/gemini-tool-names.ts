/**
 * Gemini's OpenAI-compatible endpoint turns a `role: "tool"` message into a native
 * `functionResponse`, whose `name` must not be empty; reports of 2026 find it takes that from the
 * message's own `name`, not from the call its `tool_call_id` answers, and without one answers 400
 * "GenerateContentRequest.contents[2].parts[0].function_response.name: Name cannot be empty."
 * (vectorize-io/hindsight#187; NousResearch/hermes-agent#19728, "strictly requires the `name`
 * field on `role: tool` messages"). OpenAI's own shape has no `name` there, so neither our Chat
 * encoder nor most Chat clients send one: it is filled in from the assistant call with the same id.
 */
import { mayContain } from '../protocols/lazy-json.js';
import { isObject } from '../util/is-object.js';

/** Give every tool result the name of the call it answers, where it has none. */
export function nameToolResults(body: Record<string, unknown>): void {
  if (!mayContain(body, 'messages', 'tool_call_id') || !Array.isArray(body.messages)) return;
  const names = new Map<string, string>();
  for (const m of body.messages) {
    if (!isObject(m)) continue;
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const call of m.tool_calls) {
        if (isObject(call) && typeof call.id === 'string' && isObject(call.function) && typeof call.function.name === 'string') names.set(call.id, call.function.name);
      }
    } else if (m.role === 'tool' && (typeof m.name !== 'string' || m.name === '') && typeof m.tool_call_id === 'string') {
      const name = names.get(m.tool_call_id);
      if (name !== undefined) m.name = name;
    }
  }
}
