/**
 * DeepSeek's API in thinking mode (deepseek-reasoner, V3.2 and later with thinking on) answers 400
 * "Missing `reasoning_content` field in the assistant message at message index N" for an assistant
 * message of the conversation without one (api-docs.deepseek.com/guides/thinking_mode#tool-calls;
 * reported against Continue, aider-desk and other gateways, fixed there by sending an empty one).
 * Clients drop the field, and a conversation begun with another model never had it. So each
 * assistant message without one gets its plain `reasoning` text when it has that, else "".
 *
 * Only in thinking mode — a reasoner or R1 model id, or a body that turns thinking on — since the
 * R1-era API refused the field outside it. Keyed on the model id, not the host: a DeepSeek model
 * behind any custom or local endpoint may sit on DeepSeek's own validation (a gateway in front of
 * it), and a server that does not need the field reads an empty one as none.
 */
import { fillAssistantReasoning } from './assistant-reasoning-fill.js';

type Obj = Record<string, unknown>;

export function isDeepSeekModel(model: string): boolean {
  return /deepseek/i.test(model);
}

/** A DeepSeek model asked to think: by its id (deepseek-reasoner, R1 distills) or by the body. */
export function deepSeekThinks(body: Obj, model: string): boolean {
  if (!isDeepSeekModel(model)) return false;
  if (/reasoner|(^|[^a-z0-9])r1([^0-9]|$)/i.test(model)) return true;
  const thinking = body.thinking;
  if (typeof thinking === 'object' && thinking !== null && (thinking as Obj).type === 'enabled') return true;
  return typeof body.reasoning_effort === 'string' && body.reasoning_effort !== 'none';
}

export function fillReasoningContent(body: Obj, model: string): void {
  if (deepSeekThinks(body, model)) fillAssistantReasoning(body, 'all', '');
}
