/**
 * A Messages client's own history may hold tool_use ids outside Anthropic's pattern
 * (`^[a-zA-Z0-9_-]+$`): a session passed through on a model that writes them so (Kimi's
 * `functions.list_dir:0`, behind a Messages endpoint) got them as the model wrote them. Anthropic
 * refuses such a history ("messages.1.content.0.tool_use.id: String should match pattern …"), so a
 * session taken on to `anthropic/…` (passed through: no decoder maps them) failed at its first
 * request. On that refusal the body goes once more with the ids mapped as the Messages encoder maps
 * a call id (messages/ids.ts toolUseId): a function of the id alone, so every turn maps an id alike
 * and a cached prefix stays the same, and one-to-one, so no two ids become one.
 */
import { toolUseId } from '../protocols/messages/ids.js';
import { isObject } from '../util/is-object.js';

type Obj = Record<string, unknown>;

// a tool_use's id, or a tool_result's link to it (not server_tool_use: Anthropic's own ids)
const REFUSAL = /(?:^|\.)(?:tool_use\.id|tool_result\.tool_use_id): String should match pattern/;
const SAFE = /^[a-zA-Z0-9_-]+$/;

/** The upstream refused the body for a tool_use id outside its pattern. */
export function refusesToolUseIdPattern(message: string): boolean {
  return REFUSAL.test(message);
}

/**
 * Map the tool_use ids of a Messages body, and the tool_results' links to them, in place, when one
 * is outside the pattern; true when it did. Ids already safe stay as they are, except those that
 * look mapped (`svcp_…`), which are mapped again so none meets a mapped one.
 */
export function validToolUseIds(body: Obj): boolean {
  if (!Array.isArray(body.messages) || !body.messages.some(hasUnsafeId)) return false;
  for (const m of body.messages) {
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    for (const block of m.content) {
      if (!isObject(block)) continue;
      const key = idKey(block);
      if (key === undefined) continue;
      const id = toolUseId(block[key] as string);
      // written only when it changes: an unchanged member is copied as the client sent it (json-splice.ts)
      if (id !== block[key]) block[key] = id;
    }
  }
  return true;
}

function hasUnsafeId(m: unknown): boolean {
  if (!isObject(m) || !Array.isArray(m.content)) return false;
  return m.content.some((block) => {
    if (!isObject(block)) return false;
    const key = idKey(block);
    return key !== undefined && !SAFE.test(block[key] as string);
  });
}

/** The member of a block that names a tool_use: a call's id, a result's link. */
function idKey(block: Obj): 'id' | 'tool_use_id' | undefined {
  if (block.type === 'tool_use' && typeof block.id === 'string') return 'id';
  if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') return 'tool_use_id';
  return undefined;
}
