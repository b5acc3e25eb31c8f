/**
 * Gemini 3 validates thought signatures on the current turn: every model step after the latest
 * user message whose first tool call carries no `extra_content.google.thought_signature` is a 400
 * ("Function call is missing a thought_signature in functionCall parts"). Such calls reach us
 * whenever the proof cannot come back: the calls were made by another model before a switch, the
 * client dropped `extra_content` and the daemon no longer holds it (a restart, a full cache).
 * Google documents a sentinel signature for exactly those cases (ai.google.dev thought-signatures
 * FAQ; gemini-cli and Google's own SDKs send it), which skips the check for that call.
 *
 * Earlier turns are not validated, and Gemini 2.x does not validate at all: they go as sent.
 */
import { mayContain, walkBack } from '../protocols/lazy-json.js';
import { isObject } from '../util/is-object.js';

export const SKIP_SIGNATURE_CHECK = 'skip_thought_signature_validator';

type Obj = Record<string, unknown>;

/** Gemini 3 and later, and ids without a version (`gemini-flash-latest` and other aliases). */
export function validatesThoughtSignatures(model: string): boolean {
  if (!model.includes('gemini')) return false;
  const version = /gemini-(\d+)/.exec(model);
  return version === null || Number(version[1]) >= 3;
}

function signed(call: unknown): boolean {
  if (!isObject(call) || !isObject(call.extra_content)) return false;
  const google = call.extra_content.google;
  return isObject(google) && typeof google.thought_signature === 'string' && google.thought_signature !== '';
}

/** A model step whose tool calls carry no signature at all (a parallel step signs only its first). */
function unsignedStep(message: unknown): message is Obj & { tool_calls: unknown[] } {
  if (!isObject(message) || message.role !== 'assistant' || !Array.isArray(message.tool_calls) || message.tool_calls.length === 0) return false;
  return !message.tool_calls.some(signed);
}

/**
 * Give the first call of each unsigned step of the current turn the sentinel signature. The turn is
 * found from the end (a scan when the conversation is still unparsed); the conversation is only
 * read whole when a step needs it.
 */
export function signCurrentTurn(body: Obj, model: string): void {
  if (!validatesThoughtSignatures(model) || !mayContain(body, 'messages', 'tool_calls')) return;
  let unsigned = false;
  walkBack(body, 'messages', ['user', 'tool_calls'], (message) => {
    if (isObject(message) && message.role === 'user') return false;
    unsigned = unsignedStep(message);
    return !unsigned;
  });
  if (!unsigned || !Array.isArray(body.messages)) return;
  const messages = body.messages as unknown[];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (isObject(message) && message.role === 'user') return;
    if (!unsignedStep(message)) continue;
    const first = message.tool_calls[0];
    if (!isObject(first)) continue;
    const extra: Obj = isObject(first.extra_content) ? first.extra_content : {};
    extra.google = { ...(isObject(extra.google) ? extra.google : {}), thought_signature: SKIP_SIGNATURE_CHECK };
    first.extra_content = extra;
  }
}
