/**
 * OpenAI's Responses API refuses a `call_id` over 64 characters (400 string_above_max_length), and
 * other models issue longer ones (Kimi K2: `functions.<tool name>:<n>`, the name up to 64 itself).
 * Such an id in a converted conversation's history goes as its first 40 characters and a hash of
 * the whole: the same for a call and its output, different for two calls, at most 64 characters.
 * Only history carries them: the calls of OpenAI's answer are its own ids, so nothing maps back.
 * A Responses client's own body, passed through, gets the same (providers/openai-call-ids.ts).
 */
import { createHash } from 'node:crypto';

export const MAX_CALL_ID = 64;
const KEPT = 40;

export function wireCallId(callId: string): string {
  if (callId.length <= MAX_CALL_ID) return callId;
  // 40 + 1 + 22 (base64url of 16 bytes of SHA-256) = 63
  return `${callId.slice(0, KEPT)}_${createHash('sha256').update(callId).digest('base64url').slice(0, 22)}`;
}
