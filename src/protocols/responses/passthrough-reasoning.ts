/**
 * For same-dialect passthrough to OpenAI: the input a Responses client sends back may hold
 * reasoning items we gave it while it talked to another provider, their `encrypted_content` being
 * our envelope. OpenAI rejects those ("could not be verified"), so before passthrough an item
 * whose envelope holds OpenAI's own reasoning is put back in native form, and any other is
 * removed (OpenAI cannot verify it, and reasoning never becomes visible text). Everything else
 * in the body is left as received.
 */
import { isEnvelope, originOfOpaque } from '../reasoning-envelope.js';
import { copyMembers } from '../own-members.js';
import { isObject } from './json.js';

/**
 * Rewrite `body.input` in place. Returns true when something changed (the caller then
 * re-serialises; otherwise the original bytes can go out unchanged).
 */
export function restoreNativeReasoning(body: Record<string, unknown>): boolean {
  if (!Array.isArray(body.input)) return false;
  let changed = false;
  const kept: unknown[] = [];
  for (const item of body.input) {
    const ec = isObject(item) && item.type === 'reasoning' ? item.encrypted_content : undefined;
    if (typeof ec !== 'string' || !isEnvelope(ec)) {
      kept.push(item);
      continue;
    }
    changed = true;
    const origin = originOfOpaque(ec, () => ({ kind: 'unsigned' }));
    if (origin.kind === 'openai') kept.push(withNativeProof(item as Record<string, unknown>, origin.id, origin.encryptedContent));
  }
  if (changed) body.input = kept;
  return changed;
}

/**
 * The item with OpenAI's own id and proof, keys in the item's order (id last when it had none).
 * Copied key by key, not `{ ...item, id, … }`: Codex sends reasoning items without an id, and on
 * Node 20 a spread copy that gains one gets a hidden class of its own per item.
 */
function withNativeProof(item: Record<string, unknown>, id: string, encryptedContent: string): Record<string, unknown> {
  const native = copyMembers(item);
  native.id = id;
  native.encrypted_content = encryptedContent;
  return native;
}
