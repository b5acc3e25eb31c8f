/**
 * Chat usage ↔ hub Usage. Both use OpenAI's meaning: prompt_tokens is the whole prompt including
 * cache reads and writes; completion_tokens includes reasoning.
 */
import type { Usage } from '../hub.js';
import { isRecord, num } from './guards.js';

/** Hub usage from an upstream `usage` object, or undefined when there is none. */
export function usageFromChat(u: unknown): Usage | undefined {
  if (!isRecord(u)) return undefined;
  const usage: Usage = { inputTokens: num(u.prompt_tokens) ?? 0, outputTokens: num(u.completion_tokens) ?? 0 };
  const prompt = isRecord(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  // DeepSeek (prompt_cache_hit_tokens) and Moonshot (cached_tokens) report cache hits at the top
  // level instead of in prompt_tokens_details.
  const cacheRead = num(prompt.cached_tokens) ?? num(u.prompt_cache_hit_tokens) ?? num(u.cached_tokens);
  const cacheWrite = num(prompt.cache_write_tokens);
  const completion = isRecord(u.completion_tokens_details) ? u.completion_tokens_details : {};
  const reasoning = num(completion.reasoning_tokens);
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  // Gemini's compat layer leaves thinking out of completion_tokens (total = prompt + completion +
  // reasoning); the hub's outputTokens includes reasoning, as OpenAI's completion_tokens does.
  const total = num(u.total_tokens);
  if (reasoning && total !== undefined && total === usage.inputTokens + usage.outputTokens + reasoning) usage.outputTokens += reasoning;
  return usage;
}

/**
 * Where a chunk or answer carries its usage: at the top level, or (Moonshot's streams) in its
 * choice, beside the finish_reason.
 */
export function chatUsageOf(body: Record<string, unknown>): unknown {
  if (body.usage !== undefined && body.usage !== null) return body.usage;
  const choices = body.choices;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  return isRecord(first) ? first.usage : undefined;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  completion_tokens_details: { reasoning_tokens: number };
}

export function usageToChat(u: Partial<Usage>): ChatUsage {
  const prompt = u.inputTokens ?? 0;
  const completion = u.outputTokens ?? 0;
  const promptDetails: ChatUsage['prompt_tokens_details'] = { cached_tokens: u.cacheReadTokens ?? 0 };
  if (u.cacheWriteTokens !== undefined) promptDetails.cache_write_tokens = u.cacheWriteTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: { reasoning_tokens: u.reasoningTokens ?? 0 },
  };
}
