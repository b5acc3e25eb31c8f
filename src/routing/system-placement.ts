/**
 * Chat templates that take system messages only in one place.
 *
 * Local and hosted open models render a conversation through the model's chat template, and some
 * templates refuse what OpenAI's API takes: Qwen's raise "System message must be at the beginning."
 * for any system message after the first (opencode sends two at the start, agents add reminders
 * mid-conversation; reported against LiteLLM, oh-my-pi and opencode plugins on vLLM), Gemma 2's
 * "System role not supported" for any at all. Mistral's API answers a later one "Unexpected role
 * 'system' after role 'assistant'" (swarmauri-sdk#162), and the templates of Mistral's models on
 * vLLM or llama.cpp "After the optional system message, conversation roles must alternate …"
 * (vllm#6862, mistral-vibe#1006; llama.cpp answers it as a 500): both also refuse a user turn where the system one stood (after a
 * tool result, or next to another user turn), so their system text all joins the leading message.
 * Such a refusal gets the request once more with its system text where the template takes it
 * (chat-fit.ts), and the model is remembered. Where a system text leaves its place ('joined',
 * 'none'), two user messages it stood between become one again: those templates (Mistral's,
 * Gemma's) also want user and assistant to alternate. Qwen's ('first') do not: the Qwen 3.5/3.6
 * template renders each user turn on its own and raises only on a system message not first (and
 * on a conversation without any user query), so a later system message becomes a user message
 * where it stood, and the prompt before it keeps its bytes (and the server its prefix cache).
 */
import { mayContain } from '../protocols/lazy-json.js';
import { isSystemMessage as isSystem, joinContents, joinSystemMessages, withoutSystem } from '../providers/chat-system-join.js';
import { isObject } from '../util/is-object.js';

type Obj = Record<string, unknown>;

/**
 * 'first': one system message, the first (later ones become user turns); 'joined': one system
 * message, the first, holding every system text; 'none': no system role (its text opens the first user turn).
 */
export type SystemPlacement = 'first' | 'joined' | 'none';

export function systemPlacementFrom(message: string): SystemPlacement | undefined {
  if (/system message must be at the beginning/i.test(message)) return 'first';
  if (/unexpected role '?system'? after role|after the optional system message, conversation roles must alternate/i.test(message)) return 'joined';
  if (/system role (?:is )?not supported/i.test(message)) return 'none';
  return undefined;
}

/**
 * llama.cpp answers a template's exception as a 500 (mistral-vibe#1006): a 500 is a refusal to
 * refit only when its text is one of the above; any other 500 stays the upstream's error.
 */
export function templateRefusedAs500(status: number | undefined, message: string): boolean {
  return status === 500 && systemPlacementFrom(message) !== undefined;
}

/** Put a Chat body's system messages where the template takes them, in place; true when it moved some. */
export function placeSystemMessages(body: Obj, placement: SystemPlacement): boolean {
  if (!mayContain(body, 'messages', 'system') || !Array.isArray(body.messages)) return false;
  if (placement === 'joined') return joinSystemMessages(body, true);
  const messages = body.messages as unknown[];
  let lead = 0;
  while (lead < messages.length && isSystem(messages[lead])) lead++;
  const later = messages.slice(lead).some(isSystem);
  if (placement === 'first') {
    if (lead <= 1 && !later) return false;
    const rest = messages.slice(lead).map((m) => (isSystem(m) ? { ...m, role: 'user' } : m));
    const merged = lead > 0 ? [{ ...(messages[0] as Obj), content: joinContents(messages.slice(0, lead).map((m) => (m as Obj).content)) }] : [];
    body.messages = [...merged, ...rest];
    return true;
  }
  if (lead === 0 && !later) return false;
  const systemText = joinContents(messages.filter(isSystem).map((m) => m.content));
  const others = withoutSystem(messages);
  const firstUser = others.findIndex((m) => isObject(m) && m.role === 'user');
  if (firstUser === -1) {
    body.messages = [{ role: 'user', content: systemText }, ...others];
    return true;
  }
  const user = others[firstUser] as Obj;
  others[firstUser] = { ...user, content: joinContents([systemText, user.content]) };
  body.messages = others;
  return true;
}
