/**
 * A whole 2xx answer relayed as it is (same dialect in and out) must still be its dialect's
 * answer: a gateway's stand-in (`{}`), a Chat completion with no choices or one that stopped with
 * an error (OpenRouter's provider error inside a 200) or was aborted (vLLM, SGLang), or a
 * Responses answer that failed is the target's failure — a group moves on, as it does when a converted answer's decoding refuses the
 * same body. Only the few fields that tell are read; the codec is asked why only when they do.
 */
import type { DialectCodec } from '../protocols/codec.js';
import { ProtocolError } from '../protocols/errors.js';
import type { Dialect } from '../protocols/hub.js';
import { ABORTED } from '../protocols/chat/finish-reason.js';

type Obj = Record<string, unknown>;

function looksLikeAnswer(dialect: Dialect, json: Obj): boolean {
  if (dialect === 'messages') return Array.isArray(json.content);
  if (dialect === 'chat') {
    const choices = json.choices;
    if (!Array.isArray(choices) || choices.length === 0) return false;
    const first: unknown = choices[0];
    const finish = typeof first === 'object' && first !== null ? (first as Obj).finish_reason : undefined;
    // vLLM/SGLang's "abort": the engine dropped the request, the answer is cut short (chat/finish-reason.ts)
    return finish !== 'error' && finish !== ABORTED;
  }
  return Array.isArray(json.output) && json.status !== 'failed' && json.status !== 'cancelled';
}

/** Why `json` is not an answer of `dialect` (as its codec words it), or undefined when it is one. */
export function passthroughAnswerProblem(dialect: Dialect, json: Obj, codec: DialectCodec): string | undefined {
  if (looksLikeAnswer(dialect, json)) return undefined;
  try {
    codec.decodeResponse(json);
  } catch (err) {
    if (err instanceof ProtocolError) return err.message;
    throw err;
  }
  return `not a ${dialect === 'chat' ? 'Chat completion' : dialect === 'messages' ? 'Messages answer' : 'response'}`;
}
