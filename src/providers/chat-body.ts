/** Edits of a Chat Completions request body for upstreams that are not OpenAI itself. */

import { mayContain } from '../protocols/lazy-json.js';

type Body = Record<string, unknown>;

/** `developer` is an OpenAI-only role: other servers know `system`. */
export function developerToSystem(body: Body): void {
  if (!mayContain(body, 'messages', 'developer')) return;
  const messages = body.messages;
  if (!Array.isArray(messages)) return;
  for (const m of messages) {
    if (typeof m === 'object' && m !== null && (m as Record<string, unknown>).role === 'developer') {
      (m as Record<string, unknown>).role = 'system';
    }
  }
}

/**
 * Plain reasoning a client sends back in `reasoning_content` (the AI SDK's openai-compatible
 * client does) goes in `reasoning` too: vLLM ≥0.16 reads only that on assistant messages and drops
 * the other silently (vllm-project/vllm#38488), as the converted path already knows (replayReasoning).
 * `reasoning_content` stays for the servers that read it (llama.cpp, older vLLM); a message that
 * has `reasoning` already is left as it is.
 */
export function mirrorReasoningContent(body: Body): void {
  if (!mayContain(body, 'messages', 'reasoning_content')) return;
  const messages = body.messages;
  if (!Array.isArray(messages)) return;
  for (const m of messages) {
    if (typeof m !== 'object' || m === null) continue;
    const msg = m as Record<string, unknown>;
    const text = msg.reasoning_content;
    if (msg.role === 'assistant' && typeof text === 'string' && text !== '' && (msg.reasoning === undefined || msg.reasoning === null)) msg.reasoning = text;
  }
}

/** Parameters only OpenAI's own API knows; local servers may reject them (PROTOCOLS.md §5.5). */
const OPENAI_ONLY = ['store', 'metadata', 'service_tier', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier', 'moderation'];

export function dropOpenAiOnlyParams(body: Body): void {
  for (const key of OPENAI_ONLY) delete body[key];
}

/** Local servers read `max_tokens`; a client's `max_completion_tokens` is moved there. */
export function useMaxTokensField(body: Body): void {
  if (body.max_completion_tokens === undefined) return;
  if (body.max_tokens === undefined) body.max_tokens = body.max_completion_tokens;
  delete body.max_completion_tokens;
}

/** Chat-style effort: `reasoning_effort` as given (null ceiling adapters never lower it). */
export function setReasoningEffort(body: Body, effort: string | undefined): { effortSent?: string } {
  if (effort === undefined) return {};
  body.reasoning_effort = effort;
  return { effortSent: effort };
}
