/**
 * Models that take no prefill. A conversation that ends with an assistant turn asks the model to
 * go on from it; Claude Opus and Sonnet 4.6 and later refuse that with 400 "This model does not
 * support assistant message prefill. The conversation must end with a user message.", as does any
 * Claude model with thinking on — directly or behind a Chat endpoint (OpenRouter quotes the
 * provider's words). Agents end up there without meaning to prefill: a reply cut off by the
 * network or an interrupt stays in the history as the last turn (reported against Claude Code,
 * opencode, the AI SDK and deepagents), and older clients prefill to continue a reply that hit its
 * token limit. On that refusal the request goes once more with a short user turn after it, so the
 * model continues instead of the client getting the 400. Nothing is sent differently until a
 * model refuses: the check would cost a scan of every long conversation.
 */
import { PLACEHOLDER_USER_TEXT } from '../protocols/messages/request-encode.js';

type Obj = Record<string, unknown>;

export function refusesPrefill(message: string): boolean {
  return /does not support assistant message prefill|conversation must end with a user message/i.test(message);
}

/**
 * Add a user turn after a trailing assistant turn of a Messages or Chat body (text parts read the
 * same in both), in place; true when it did.
 */
export function continueAfterPrefill(body: Obj): boolean {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return false;
  const last: unknown = messages[messages.length - 1];
  if (typeof last !== 'object' || last === null || (last as Obj).role !== 'assistant') return false;
  messages.push({ role: 'user', content: [{ type: 'text', text: PLACEHOLDER_USER_TEXT }] });
  return true;
}
