/**
 * Token usage for the request log, in one meaning whatever the dialect: `input` is the TOTAL
 * prompt incl. cache reads/writes (OpenAI's meaning), `cached` the cache reads, `output` includes
 * reasoning, `reasoning` the reasoning share.
 */
import type { Dialect, Usage } from '../protocols/hub.js';
import type { LogUsage } from '../log/entry.js';

type Obj = Record<string, unknown>;

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null ? (v as Obj) : undefined;
}

/** Read a usage object of the given dialect (Chat `usage`, Responses `response.usage`, Messages `usage`). */
export function readUsageObject(u: Obj, dialect: Dialect): LogUsage | undefined {
  const out: LogUsage = {};
  if (dialect === 'chat') {
    setIf(out, 'input', num(u.prompt_tokens));
    setIf(out, 'output', num(u.completion_tokens));
    // DeepSeek and Moonshot report cache hits at the top level
    setIf(out, 'cached', num(obj(u.prompt_tokens_details)?.cached_tokens) ?? num(u.prompt_cache_hit_tokens) ?? num(u.cached_tokens));
    setIf(out, 'reasoning', num(obj(u.completion_tokens_details)?.reasoning_tokens));
  } else if (dialect === 'responses') {
    setIf(out, 'input', num(u.input_tokens));
    setIf(out, 'output', num(u.output_tokens));
    setIf(out, 'cached', num(obj(u.input_tokens_details)?.cached_tokens));
    setIf(out, 'reasoning', num(obj(u.output_tokens_details)?.reasoning_tokens));
  } else {
    const uncached = num(u.input_tokens);
    const read = num(u.cache_read_input_tokens);
    const write = num(u.cache_creation_input_tokens);
    if (uncached !== undefined) out.input = uncached + (read ?? 0) + (write ?? 0);
    setIf(out, 'output', num(u.output_tokens));
    setIf(out, 'cached', read);
    setIf(out, 'reasoning', num(obj(u.output_tokens_details)?.thinking_tokens));
  }
  return out.input === undefined && out.output === undefined && out.cached === undefined && out.reasoning === undefined
    ? undefined
    : out;
}

/** Usage of a whole non-streamed answer body of the given dialect. */
export function readResponseUsage(body: Obj, dialect: Dialect): LogUsage | undefined {
  const u = obj(body.usage);
  return u ? readUsageObject(u, dialect) : undefined;
}

/**
 * Usage carried by one streamed event of the given dialect (already JSON-parsed): Chat chunks'
 * `usage`, Responses `response.*` events' `response.usage`, Messages `message_start.message.usage`
 * and `message_delta.usage`.
 */
export function readEventUsage(event: Obj, dialect: Dialect): LogUsage | undefined {
  let u: Obj | undefined;
  if (dialect === 'chat') u = obj(event.usage) ?? obj(firstChoice(event)?.usage); // Moonshot: in the choice
  else if (dialect === 'responses') u = obj(obj(event.response)?.usage);
  else u = obj(event.usage) ?? obj(obj(event.message)?.usage);
  return u ? readUsageObject(u, dialect) : undefined;
}

function firstChoice(event: Obj): Obj | undefined {
  const choices = event.choices;
  return Array.isArray(choices) ? obj(choices[0]) : undefined;
}

export function fromHubUsage(u: Partial<Usage>): LogUsage {
  const out: LogUsage = {};
  setIf(out, 'input', u.inputTokens);
  setIf(out, 'output', u.outputTokens);
  setIf(out, 'cached', u.cacheReadTokens);
  setIf(out, 'reasoning', u.reasoningTokens);
  return out;
}

/**
 * Later values win field by field (streams report usage cumulatively). The first one is copied key
 * by key, not spread: on Node 20's V8 a spread copy that later gains a key (`output` after
 * message_start's input) gets a hidden class of its own, one per stream.
 */
export function mergeUsage(into: LogUsage | undefined, next: LogUsage | undefined): LogUsage | undefined {
  if (!next) return into;
  const out = into ?? {};
  if (next.input !== undefined) out.input = next.input;
  if (next.output !== undefined) out.output = next.output;
  if (next.cached !== undefined) out.cached = next.cached;
  if (next.reasoning !== undefined) out.reasoning = next.reasoning;
  return out;
}

function setIf(out: LogUsage, key: keyof LogUsage, v: number | undefined): void {
  if (v !== undefined) out[key] = v;
}
