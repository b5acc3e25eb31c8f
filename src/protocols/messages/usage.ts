/**
 * Usage with cache semantics. Anthropic's `input_tokens` EXCLUDES cache reads and writes; the
 * hub's `inputTokens` is the total (OpenAI's meaning). Output includes thinking.
 */
import type { Usage } from '../hub.js';
import { isObject, numberOr } from './json.js';

/** Anthropic's counters as read from a body or merged across stream events. */
export interface AnthropicCounts {
  input?: number;
  cacheWrite?: number;
  cacheRead?: number;
  output?: number;
  thinking?: number;
}

/** Read an upstream `usage` object; missing/null fields stay undefined. */
export function readCounts(v: unknown): AnthropicCounts {
  if (!isObject(v)) return {};
  const out: AnthropicCounts = {};
  const input = numberOr(v.input_tokens);
  if (input !== undefined) out.input = input;
  const cw = numberOr(v.cache_creation_input_tokens);
  if (cw !== undefined) out.cacheWrite = cw;
  const cr = numberOr(v.cache_read_input_tokens);
  if (cr !== undefined) out.cacheRead = cr;
  const output = numberOr(v.output_tokens);
  if (output !== undefined) out.output = output;
  const thinking = isObject(v.output_tokens_details) ? numberOr(v.output_tokens_details.thinking_tokens) : undefined;
  if (thinking !== undefined) out.thinking = thinking;
  return out;
}

const COUNT_KEYS = ['input', 'cacheWrite', 'cacheRead', 'output', 'thinking'] as const;

/**
 * Later, non-null values win field by field (Anthropic's message_delta usage is cumulative). Set
 * key by key, not `{ ...a, ...b }`: on Node 20 a spread copy that gains a key (cache counts a
 * gateway sends only at message_delta) gets a hidden class of its own per stream.
 */
export function mergeCounts(a: AnthropicCounts, b: AnthropicCounts): AnthropicCounts {
  const out: AnthropicCounts = {};
  for (const key of COUNT_KEYS) {
    const value = b[key] ?? a[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Hub usage from Anthropic counters; only the fields actually known are set. */
export function hubUsage(c: AnthropicCounts): Partial<Usage> {
  const u: Partial<Usage> = {};
  if (c.input !== undefined || c.cacheRead !== undefined || c.cacheWrite !== undefined) {
    u.inputTokens = (c.input ?? 0) + (c.cacheRead ?? 0) + (c.cacheWrite ?? 0);
  }
  if (c.output !== undefined) u.outputTokens = c.output;
  if (c.cacheRead !== undefined) u.cacheReadTokens = c.cacheRead;
  if (c.cacheWrite !== undefined) u.cacheWriteTokens = c.cacheWrite;
  if (c.thinking !== undefined) u.reasoningTokens = c.thinking;
  return u;
}

export interface AnthropicUsageFields {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
  output_tokens_details: { thinking_tokens: number } | null;
}

/** Hub usage written with Anthropic's semantics (uncached input = total − reads − writes). */
export function anthropicUsage(u: Partial<Usage>): AnthropicUsageFields {
  const read = u.cacheReadTokens ?? 0;
  const write = u.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (u.inputTokens ?? 0) - read - write),
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    output_tokens: u.outputTokens ?? 0,
    output_tokens_details: u.reasoningTokens !== undefined ? { thinking_tokens: u.reasoningTokens } : null,
  };
}

/** Field-by-field merge of partial hub usage (later wins). */
export function mergeUsage(a: Partial<Usage>, b: Partial<Usage> | undefined): Partial<Usage> {
  if (!b) return a;
  const out: Partial<Usage> = { ...a };
  for (const [k, v] of Object.entries(b) as [keyof Usage, number | undefined][]) if (v !== undefined) out[k] = v;
  return out;
}
