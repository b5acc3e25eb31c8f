/**
 * Passthrough never hands a provider one of our envelopes (PROTOCOLS.md §7.5). A client that
 * switched model mid-conversation sends back reasoning another provider produced, wrapped so its
 * dialect could carry it: Messages bodies get Anthropic's own proof back and lose the rest,
 * Responses bodies get OpenAI's. Chat clients are never given envelopes (their dialect carries
 * each origin in its own field), so Chat bodies are left alone.
 */
import type { Dialect } from '../protocols/hub.js';
import { restoreNativeThinking } from '../protocols/messages/index.js';
import { mayHoldEnvelopes } from '../protocols/reasoning-envelope.js';
import { restoreNativeReasoning } from '../protocols/responses/index.js';

/** Whether a raw body of this dialect may need restoring (one byte search, no parse). */
export function needsNativeProof(dialect: Dialect, raw: Buffer): boolean {
  return dialect !== 'chat' && mayHoldEnvelopes(raw);
}

/** Put the target's own proof back in place of our envelopes. Returns true when the body changed. */
export function restoreNativeProof(dialect: Dialect, body: Record<string, unknown>): boolean {
  if (dialect === 'messages') return restoreNativeThinking(body);
  if (dialect === 'responses') return restoreNativeReasoning(body);
  return false;
}
