/**
 * Anthropic's `stop_details` for an answer that stopped as a refusal (PROTOCOLS.md §4.2). Other
 * providers name no policy category, so it is null; their refusal text, where they wrote one, is
 * the explanation.
 */
import type { RefusalStopDetails } from '@anthropic-ai/sdk/resources/messages/messages';
import type { StopReason } from '../hub.js';

export function stopDetails(stopReason: StopReason, refusalText: string | undefined): RefusalStopDetails | null {
  if (stopReason !== 'refusal') return null;
  return { type: 'refusal', category: null, explanation: refusalText ? refusalText : null };
}
