/**
 * Responses usage ↔ hub usage. Both use OpenAI's meaning: `input_tokens` is the total prompt
 * including cached reads (and writes); `output_tokens` includes reasoning.
 */
import type { ResponseUsage } from 'openai/resources/responses/responses';
import type { Usage } from '../hub.js';
import { count, isObject } from './json.js';

export function usageFromWire(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const input = count(value.input_tokens);
  const output = count(value.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const usage: Usage = { inputTokens: input ?? 0, outputTokens: output ?? 0 };
  const inDetails = isObject(value.input_tokens_details) ? value.input_tokens_details : {};
  const outDetails = isObject(value.output_tokens_details) ? value.output_tokens_details : {};
  const cached = count(inDetails.cached_tokens);
  const written = count(inDetails.cache_write_tokens);
  const reasoning = count(outDetails.reasoning_tokens);
  if (cached !== undefined) usage.cacheReadTokens = cached;
  if (written !== undefined) usage.cacheWriteTokens = written;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

export function usageToWire(usage: Partial<Usage> | undefined): ResponseUsage | null {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return null;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0, cache_write_tokens: usage.cacheWriteTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: input + output,
  };
}

/** Later values win field by field (hub usage events are cumulative). */
export function mergeUsage(into: Partial<Usage>, from: Partial<Usage> | undefined): Partial<Usage> {
  if (!from) return into;
  for (const key of Object.keys(from) as Array<keyof Usage>) {
    const value = from[key];
    if (value !== undefined) into[key] = value;
  }
  return into;
}
