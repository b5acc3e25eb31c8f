/**
 * MiniMax M2 over its OpenAI-compatible API writes its reasoning into `content` as a leading
 * `<think>…</think>` and wants the whole message back in history to keep its interleaved thinking
 * going (platform.minimax.io/docs/guides/text-m2-function-call: "the content field contains <think>
 * tags … append the full response message"). Our decoders split that reasoning off, so it comes back
 * in `reasoning`/`reasoning_content`, which MiniMax does not read: here it goes back inline, as
 * `<think>{reasoning}</think>\n\n` ahead of the content, and the two fields go. `reasoning_details`
 * (MiniMax's own form with `reasoning_split`) stays as it is. Keyed on the model id, since the same
 * model sits behind MiniMax's API, a gateway or vLLM alike.
 */
import { mayContain } from '../protocols/lazy-json.js';

type Obj = Record<string, unknown>;

const MINIMAX = /minimax/i;
const FIELDS = ['reasoning', 'reasoning_content'] as const;

function reasoningText(message: Obj): string {
  for (const field of FIELDS) {
    const text = message[field];
    if (typeof text === 'string' && text !== '') return text;
  }
  return '';
}

/** The content with the reasoning ahead of it: a string prefixed, a list of parts given a text part first. */
function withThinking(content: unknown, think: string): unknown {
  if (typeof content === 'string') return think + content;
  if (Array.isArray(content)) return [{ type: 'text', text: think }, ...content];
  return think; // null: a message of tool calls only
}

export function isMiniMaxModel(model: string): boolean {
  return MINIMAX.test(model);
}

export function inlineMiniMaxReasoning(body: Obj, model: string): void {
  if (!isMiniMaxModel(model)) return;
  // a passthrough conversation without either field is left unparsed
  if (!FIELDS.some((field) => mayContain(body, 'messages', field)) || !Array.isArray(body.messages)) return;
  for (const m of body.messages as unknown[]) {
    if (typeof m !== 'object' || m === null) continue;
    const message = m as Obj;
    if (message.role !== 'assistant') continue;
    const text = reasoningText(message);
    if (!text) continue;
    message.content = withThinking(message.content, `<think>${text}</think>\n\n`);
    for (const field of FIELDS) delete message[field];
  }
}
