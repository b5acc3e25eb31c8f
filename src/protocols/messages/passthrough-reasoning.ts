/**
 * For same-dialect passthrough to a Messages upstream: history a Messages client sends back may
 * hold thinking blocks we gave it while it talked to another provider, their `signature` being our
 * envelope. Anthropic rejects those ("invalid signature"), so before passthrough they are put
 * back in native form when they hold Anthropic proof, and removed otherwise. Everything else in
 * the body is left as received, byte-for-byte in meaning (signed native blocks are untouched).
 */
import { isEnvelope, originFromSignature } from '../reasoning-envelope.js';
import { isObject, type JsonObject } from './json.js';

/**
 * Rewrite the content blocks of every assistant turn in `body.messages`. `rewrite` returns
 * undefined to keep a block as it is, or the blocks that replace it (none to remove it). A turn
 * left empty is removed: Anthropic would reject it, and merges the neighbours that now touch.
 * Returns true when something changed; `body.messages` is then a new array, and each changed turn
 * a new object (the client's own objects are never edited).
 */
export function rewriteAssistantBlocks(body: Record<string, unknown>, rewrite: (block: JsonObject) => unknown[] | undefined): boolean {
  if (!Array.isArray(body.messages)) return false;
  let changed = false;
  const kept: unknown[] = [];
  for (const m of body.messages) {
    if (!isObject(m) || m.role !== 'assistant' || !Array.isArray(m.content)) {
      kept.push(m);
      continue;
    }
    const content: unknown[] = [];
    let touched = false;
    for (const block of m.content) {
      const replaced = isObject(block) ? rewrite(block) : undefined;
      if (replaced === undefined) content.push(block);
      else {
        touched = true;
        content.push(...replaced);
      }
    }
    if (!touched) kept.push(m);
    else if (content.length > 0) kept.push({ ...m, content });
    changed ||= touched;
  }
  if (changed) body.messages = kept;
  return changed;
}

/**
 * Our envelopes in `body.messages` put back in Anthropic's form, or removed when they hold another
 * provider's reasoning (never made text). Returns true when something changed (the caller then
 * re-serialises; otherwise the original bytes can go out unchanged).
 */
export function restoreNativeThinking(body: Record<string, unknown>): boolean {
  return rewriteAssistantBlocks(body, (block) => {
    if (block.type !== 'thinking' || typeof block.signature !== 'string' || !isEnvelope(block.signature)) return undefined;
    const origin = originFromSignature(block.signature);
    if (origin.kind === 'anthropic') return [{ ...block, signature: origin.signature }];
    if (origin.kind === 'anthropic_redacted') return [{ type: 'redacted_thinking', data: origin.data }];
    return [];
  });
}
