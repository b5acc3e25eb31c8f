/**
 * History rules of model families that any custom or local Chat server may serve: what DeepSeek,
 * Kimi and Mistral refuse in a conversation another model (or a forgetful client) wrote, and where
 * MiniMax reads its reasoning back. Keyed on the model id, since the same model sits behind its
 * maker's API, a gateway or vLLM alike.
 */
import { fillReasoningContent } from './deepseek-reasoning.js';
import { fillKimiReasoningContent } from './kimi-reasoning.js';
import { inlineMiniMaxReasoning } from './minimax-reasoning.js';
import { fitToolCallIds } from './mistral-tool-ids.js';
import { bridgeToolToUser } from './mistral-turn-order.js';

export function fitModelFamilyHistory(body: Record<string, unknown>, model: string): void {
  fillReasoningContent(body, model);
  fillKimiReasoningContent(body, model);
  fitToolCallIds(body, model);
  bridgeToolToUser(body, model);
  inlineMiniMaxReasoning(body, model);
}
