/**
 * Chat upstreams that refuse reasoning on replayed assistant messages.
 *
 * Plain reasoning goes back to Chat servers in `reasoning` and `reasoning_content` (vLLM, llama.cpp
 * and DeepSeek read one or the other), but Groq and Cerebras validate every field and answer 400
 * "property 'reasoning_content' is unsupported" (or 'reasoning'; reported against Jan,
 * claude-code-router, Kilo Code and other gateways). A history with a reasoning model's turn in it
 * then fails on every request. Such a refusal gets the request once more without those fields, and
 * the endpoint is remembered so later requests go without them from the start (chat-fit.ts).
 */
import { mayContain } from '../protocols/lazy-json.js';

type Obj = Record<string, unknown>;

const FIELDS = ['reasoning', 'reasoning_content'] as const;

/** Wordings of a refusal of reasoning fields on a message (Groq, Cerebras, pydantic-strict servers). */
const REFUSAL: readonly RegExp[] = [
  /property '(?:[\w.]*\.)?reasoning(?:_content)?' is unsupported/i,
  /reasoning(?:_content)?['"]?\s*:?\s*extra inputs are not permitted/i,
];

export function refusesReasoningFields(message: string): boolean {
  return REFUSAL.some((re) => re.test(message));
}

/** Remove plain reasoning from a Chat body's assistant messages, in place; true when it removed some. */
export function stripReasoningFields(body: Obj): boolean {
  if (!mayContain(body, 'messages', 'assistant') || !Array.isArray(body.messages)) return false;
  let removed = false;
  for (const m of body.messages as unknown[]) {
    if (typeof m !== 'object' || m === null || (m as Obj).role !== 'assistant') continue;
    for (const field of FIELDS) {
      if (!(field in (m as Obj))) continue;
      delete (m as Obj)[field];
      removed = true;
    }
  }
  return removed;
}
