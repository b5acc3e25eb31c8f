/**
 * A Chat Completions request from a client → HubRequest. Every bad input is a 400 ProtocolError
 * with a stable code and the offending `param`; nothing else is ever thrown.
 */
import { EFFORTS, type Effort, type HubRequest, type ReasoningRequest, type Tool } from '../hub.js';
import { badRequest } from '../errors.js';
import { decodeOpenaiParams } from './openai-params.js';
import { decodeMessages } from './request-decode-messages.js';
import { decodeResponseFormat, decodeToolChoice, decodeTools } from './request-decode-tools.js';
import { decodeWebSearchOptions } from './web-search-options.js';
import {
  expectNonEmptyString,
  isRecord,
  jsonType,
  optBoolean,
  optIntegerInRange,
  optNumberInRange,
  optString,
  setOwn,
  type Json,
} from './guards.js';

const REQ = 'invalid_request';
/** No model has an output cap near this; a larger value is a client bug, not a wish. */
export const MAX_OUTPUT_TOKENS_LIMIT = 10_000_000;

/** `minimal` is read as `low` (the hub has no `minimal`; no target distinguishes them usefully). */
export function parseEffort(v: unknown, param: string): Effort | undefined {
  if (v === undefined || v === null) return undefined;
  if (v === 'minimal') return 'low';
  if (typeof v === 'string' && (EFFORTS as ReadonlyArray<string>).includes(v)) return v as Effort;
  const shown = typeof v === 'string' ? `"${v.slice(0, 40)}"` : jsonType(v);
  throw badRequest('invalid_reasoning', `${param} ${shown} is not valid; use one of none, minimal, low, medium, high, xhigh, max.`, param);
}

/** `reasoning_effort`, or OpenRouter's `reasoning` object that OpenRouter-aware clients send. */
function decodeReasoning(body: Json): ReasoningRequest | undefined {
  const out: ReasoningRequest = {};
  const effort = parseEffort(body.reasoning_effort, 'reasoning_effort');
  const r = body.reasoning;
  if (r !== undefined && r !== null) {
    if (!isRecord(r)) throw badRequest('invalid_reasoning', 'reasoning must be an object.', 'reasoning');
    const nested = parseEffort(r.effort, 'reasoning.effort');
    const enabled = optBoolean(r.enabled, 'invalid_reasoning', 'reasoning.enabled');
    const budget = optIntegerInRange(r.max_tokens, 0, MAX_OUTPUT_TOKENS_LIMIT, 'invalid_reasoning', 'reasoning.max_tokens');
    if (nested) out.effort = nested;
    else if (enabled === false) out.effort = 'none';
    if (budget !== undefined) out.budgetTokens = budget;
  }
  if (effort) out.effort = effort;
  return Object.keys(out).length > 0 ? out : undefined;
}

function decodeStop(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : undefined;
  if (!list || !list.every((s): s is string => typeof s === 'string')) {
    throw badRequest(REQ, 'stop must be a string or an array of strings.', 'stop');
  }
  const stops = list.filter((s) => s.length > 0);
  return stops.length > 0 ? stops : undefined;
}

function decodeMetadata(v: unknown): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw badRequest(REQ, 'metadata must be an object of string values.', 'metadata');
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (typeof val !== 'string') throw badRequest(REQ, `metadata.${k.slice(0, 64)} must be a string.`, `metadata.${k.slice(0, 64)}`);
    setOwn(out, k, val);
  }
  return out;
}

function decodeMaxTokens(body: Json): number | undefined {
  const check = (field: string): number | undefined => {
    const v = body[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0 || v > MAX_OUTPUT_TOKENS_LIMIT) {
      throw badRequest('invalid_max_tokens', `${field} must be a positive integer no larger than ${MAX_OUTPUT_TOKENS_LIMIT}.`, field);
    }
    return v;
  };
  const completion = check('max_completion_tokens');
  const legacy = check('max_tokens');
  return completion ?? legacy;
}

/** Features with no equivalent on a converted target: refuse instead of dropping them silently. */
function rejectUnconvertible(body: Json): void {
  const modalities = body.modalities;
  if ((Array.isArray(modalities) && modalities.includes('audio')) || (body.audio !== undefined && body.audio !== null)) {
    throw badRequest('unsupported_feature', 'Audio output (modalities: ["audio"]) is not available for this model.', 'modalities');
  }
}

/** `verbosity` (gpt-5 family): kept in the hub so a Responses target gets it as text.verbosity. */
function decodeVerbosity(v: unknown): HubRequest['verbosity'] {
  if (v === undefined || v === null) return undefined;
  if (v === 'low' || v === 'medium' || v === 'high') return v;
  throw badRequest(REQ, 'verbosity must be "low", "medium" or "high".', 'verbosity');
}

/** `top_k` from clients of vLLM/OpenRouter-style servers; 0 and -1 mean "off". */
function decodeTopK(v: unknown): number | undefined {
  const k = optIntegerInRange(v, -1, 1_000_000, REQ, 'top_k');
  return k !== undefined && k > 0 ? k : undefined;
}

export function decodeRequest(raw: unknown): HubRequest {
  if (!isRecord(raw)) throw badRequest(REQ, `The request body must be a JSON object, got ${jsonType(raw)}.`);
  const body = raw;
  const model = expectNonEmptyString(body.model, 'invalid_model', 'model');
  const { system, items } = decodeMessages(body.messages);
  rejectUnconvertible(body);
  const functions = decodeTools(body);
  const search = decodeWebSearchOptions(body.web_search_options);
  if (search && functions.some((t) => t.name === search.name)) {
    throw badRequest(REQ, 'A function tool named web_search cannot be declared beside web_search_options: rename the function.', 'tools');
  }
  const tools: Tool[] = search ? [...functions, search] : functions;
  const req: HubRequest = { model, system, items, tools, stream: optBoolean(body.stream, REQ, 'stream') ?? false };

  const toolChoice = decodeToolChoice(body, functions);
  if (toolChoice) req.toolChoice = toolChoice;
  const parallel = optBoolean(body.parallel_tool_calls, REQ, 'parallel_tool_calls');
  if (parallel !== undefined) req.parallelToolCalls = parallel;
  // one function_call is all a `functions` client can be answered with
  if (wantsLegacyFunctionCall(body)) req.parallelToolCalls = false;
  const responseFormat = decodeResponseFormat(body.response_format);
  if (responseFormat) req.responseFormat = responseFormat;
  const verbosity = decodeVerbosity(body.verbosity);
  if (verbosity) req.verbosity = verbosity;

  const maxOutputTokens = decodeMaxTokens(body);
  if (maxOutputTokens !== undefined) req.maxOutputTokens = maxOutputTokens;
  const temperature = optNumberInRange(body.temperature, 0, 2, REQ, 'temperature');
  if (temperature !== undefined) req.temperature = temperature;
  const topP = optNumberInRange(body.top_p, 0, 1, REQ, 'top_p');
  if (topP !== undefined) req.topP = topP;
  const topK = decodeTopK(body.top_k);
  if (topK !== undefined) req.topK = topK;
  const stop = decodeStop(body.stop);
  if (stop) req.stop = stop;
  const n = optIntegerInRange(body.n, 1, 128, REQ, 'n');
  if (n !== undefined) req.n = n;

  const reasoning = decodeReasoning(body);
  if (reasoning) req.reasoning = reasoning;
  const user = optString(body.safety_identifier, REQ, 'safety_identifier') || optString(body.user, REQ, 'user');
  if (user) req.user = user;
  const metadata = decodeMetadata(body.metadata);
  if (metadata) req.metadata = metadata;
  decodeOpenaiParams(body, req);
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (!isRecord(body.stream_options)) throw badRequest(REQ, 'stream_options must be an object.', 'stream_options');
    optBoolean(body.stream_options.include_usage, REQ, 'stream_options.include_usage');
  }
  return req;
}

/**
 * Whether a streaming Chat client asked for the final usage chunk (`stream_options.include_usage`).
 * The hub has no field for it (the proxy always asks the upstream); routing passes this to the
 * stream encoder as ResponseContext.includeUsage.
 */
export function wantsStreamUsage(raw: unknown): boolean {
  return isRecord(raw) && isRecord(raw.stream_options) && raw.stream_options.include_usage === true;
}

/**
 * Whether a Chat client declared the deprecated `functions` instead of `tools`: OpenAI then answers
 * with one `function_call` (finish_reason `function_call`), which is all such a client reads.
 * Routing passes this to the response encoders as ResponseContext.legacyFunctions.
 */
export function wantsLegacyFunctionCall(raw: unknown): boolean {
  return isRecord(raw) && Array.isArray(raw.functions) && (raw.tools === undefined || raw.tools === null);
}
