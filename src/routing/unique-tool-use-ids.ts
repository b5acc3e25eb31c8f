/**
 * A Messages client's own history may hold one `tool_use` id in several turns: a session passed
 * through on a model that numbers its calls per turn (Kimi's `list_dir_0` each turn, behind a
 * Messages endpoint) got them as the model wrote them. Anthropic refuses such a history ("`tool_use`
 * ids must be unique"), so a session taken on to `anthropic/…` (passed through: no decoder renames
 * them) failed at its first request. On that refusal the body goes once more with each repeat
 * renamed as the Messages decoder names it (call-id-reuse.ts: `_2`, `_3` …), and each tool_result
 * with its call's. Learnt from the refusal, not looked for: a history without repeats, the usual
 * one, costs nothing; the session's next turns get it up front (tool-use-id-rewrites.ts).
 */
import { CallIdReuse } from '../protocols/call-id-reuse.js';
import { isObject } from '../util/is-object.js';

type Obj = Record<string, unknown>;

// Anthropic has written it with and without the backticks ("messages.43.content.2: tool_use ids must be unique")
const REFUSAL = /`?tool_use`? ids must be unique/;

/** The upstream refused the body for a tool_use id it holds twice. */
export function refusesRepeatedToolUseIds(message: string): boolean {
  return REFUSAL.test(message);
}

/** Rename each repeated tool_use id of a Messages body, and the tool_results that answer it, in place; true when one was. */
export function uniqueToolUseIds(body: Obj): boolean {
  if (!Array.isArray(body.messages)) return false;
  let renamed = false;
  const names = new CallIdReuse();
  // a result answers the latest call of its id before it
  const latest = new Map<string, string>();
  for (const m of body.messages) {
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    for (const block of m.content) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_use' && typeof block.id === 'string') {
        const id = names.idFor(block.id);
        latest.set(block.id, id);
        // written only when it changes: an unchanged member is copied as the client sent it (json-splice.ts)
        if (id !== block.id) {
          block.id = id;
          renamed = true;
        }
      } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const id = latest.get(block.tool_use_id);
        if (id !== undefined && id !== block.tool_use_id) block.tool_use_id = id;
      }
    }
  }
  return renamed;
}
