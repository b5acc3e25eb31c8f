/**
 * For same-dialect passthrough to a Messages upstream: history a Messages client sends back may
 * hold thinking blocks we gave it while it talked to another provider, their `signature` being our
 * envelope. Anthropic rejects those ("invalid signature"), so before passthrough they are put
 * back in native form when they hold Anthropic proof, and removed otherwise. Everything else in
 * the body is left as received, byte-for-byte in meaning (signed native blocks are untouched).
 */
import { isEnvelope, originFromSignature } from '../reasoning-envelope.js';
import { isObject } from './json.js';

/**
 * Rewrite `body.messages` in place. Returns true when something changed (the caller then
 * re-serialises; otherwise the original bytes can go out unchanged).
 */
export function restoreNativeThinking(body: Record<string, unknown>): boolean {
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
      if (!isObject(block) || block.type !== 'thinking' || typeof block.signature !== 'string' || !isEnvelope(block.signature)) {
        content.push(block);
        continue;
      }
      touched = true;
      const origin = originFromSignature(block.signature);
      if (origin.kind === 'anthropic') content.push({ ...block, signature: origin.signature });
      else if (origin.kind === 'anthropic_redacted') content.push({ type: 'redacted_thinking', data: origin.data });
      // Any other origin is foreign reasoning Anthropic cannot verify: dropped, never made text.
    }
    // A turn left empty would be rejected; Anthropic merges the neighbours that now touch.
    if (!touched) kept.push(m);
    else if (content.length > 0) kept.push({ ...m, content });
    changed ||= touched;
  }
  if (changed) body.messages = kept;
  return changed;
}
