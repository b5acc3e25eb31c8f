/**
 * The hub's token logprobs → Chat's `choices[].logprobs` (`{content, refusal}`), in the answer and
 * on each streamed text chunk. `bytes` is null where the upstream did not state them (Responses
 * deltas): a token may be part of a character, so its text cannot be trusted to give them back.
 */
import type { ChatCompletionTokenLogprob } from 'openai/resources/chat/completions';
import type { TokenLogprob } from '../hub.js';

export function chatTokenLogprobs(tokens: readonly TokenLogprob[]): ChatCompletionTokenLogprob[] {
  return tokens.map((t) => ({
    token: t.token,
    logprob: t.logprob,
    bytes: t.bytes ?? null,
    top_logprobs: t.top.map((a) => ({ token: a.token, logprob: a.logprob, bytes: a.bytes ?? null })),
  }));
}

/** A choice's `logprobs` for these tokens of its content. */
export function chatLogprobs(tokens: readonly TokenLogprob[]): { content: ChatCompletionTokenLogprob[]; refusal: null } {
  return { content: chatTokenLogprobs(tokens), refusal: null };
}
