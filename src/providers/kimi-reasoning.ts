/**
 * Kimi (Moonshot) in thinking mode answers 400 "thinking is enabled but reasoning_content is
 * missing in assistant tool call message at index N" for an assistant message with tool calls
 * and no `reasoning_content` (reported against opencode, Continue, Cherry Studio, mastra, pi and
 * gateways alike, on Moonshot's API and on OpenRouter, Cloudflare and Cerebras hosting it). Clients
 * drop the field, and a conversation begun with another model never had it. K2.6 reads an empty
 * string as missing (earendil-works/pi#4251), so a call without reasoning text of its own gets a
 * single space: the least a placeholder can say.
 *
 * Thinking is on by default for kimi-k2-thinking and for K2.5 and later (off with
 * `thinking: {type: "disabled"}`); earlier K2 models think only when the body turns it on. Keyed on
 * the model id, since the same model sits behind Moonshot, a gateway or vLLM alike.
 */
import { fillAssistantReasoning } from './assistant-reasoning-fill.js';

type Obj = Record<string, unknown>;

const KIMI = /kimi|(^|[^a-z0-9])k2p\d/i;
/** Thinks unless told not to: the thinking line, K2.5 and later (kimi-k2.5, K2.6, k2p5), K3 on. */
const THINKS_BY_DEFAULT = /thinking|k2[.p-]?[5-9](?![0-9])|kimi-k[3-9](?![0-9])/i;

function thinkingType(body: Obj): unknown {
  const thinking = body.thinking;
  return typeof thinking === 'object' && thinking !== null ? (thinking as Obj).type : undefined;
}

export function isKimiModel(model: string): boolean {
  return KIMI.test(model);
}

export function kimiThinks(body: Obj, model: string): boolean {
  if (!isKimiModel(model)) return false;
  const type = thinkingType(body);
  if (type === 'disabled') return false;
  return type === 'enabled' || THINKS_BY_DEFAULT.test(model);
}

export function fillKimiReasoningContent(body: Obj, model: string): void {
  if (kimiThinks(body, model)) fillAssistantReasoning(body, 'tool-calls', ' ');
}
