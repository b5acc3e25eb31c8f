/**
 * History rules of model families that any custom or local Chat server may serve: what DeepSeek,
 * Kimi and Mistral refuse in a conversation another model (or a forgetful client) wrote, and where
 * MiniMax reads its reasoning back. Keyed on the model id, since the same model sits behind its
 * maker's API, a gateway or vLLM alike.
 */
import { memoByString } from '../util/string-memo.js';
import { fillReasoningContent, isDeepSeekModel } from './deepseek-reasoning.js';
import { fillKimiReasoningContent, isKimiModel } from './kimi-reasoning.js';
import { inlineMiniMaxReasoning, isMiniMaxModel } from './minimax-reasoning.js';
import { fitToolCallIds, isMistralModel } from './mistral-tool-ids.js';
import { bridgeToolToUser } from './mistral-turn-order.js';

/**
 * Whether any of the families has rules for the model, tested once per model id: most models are
 * none of them, and each request to one then skips the five rules on one lookup instead of five
 * regular expressions (each rule below still checks its own family).
 */
const hasFamilyRules = memoByString((model) => isDeepSeekModel(model) || isKimiModel(model) || isMistralModel(model) || isMiniMaxModel(model));

export function fitModelFamilyHistory(body: Record<string, unknown>, model: string): void {
  if (!hasFamilyRules(model)) return;
  fillReasoningContent(body, model);
  fillKimiReasoningContent(body, model);
  fitToolCallIds(body, model);
  bridgeToolToUser(body, model);
  inlineMiniMaxReasoning(body, model);
}
