/**
 * Chat parameters that only OpenAI acts on and that a converted request must still carry to it:
 * the processing tier (it sets the price), the prompt-cache bucket and the answer's logprobs.
 * Other targets leave them out (PROTOCOLS.md §5.5); the hub keeps them for the Responses codec.
 */
import { SERVICE_TIERS, type HubRequest, type ServiceTier } from '../hub.js';
import { badRequest } from '../errors.js';
import { optBoolean, optIntegerInRange, optString, type Json } from './guards.js';

const REQ = 'invalid_request';
/** OpenAI gives at most 20 alternatives per token, in Chat and Responses alike. */
export const MAX_TOP_LOGPROBS = 20;

export function decodeServiceTier(v: unknown, param: string): ServiceTier | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' && (SERVICE_TIERS as ReadonlyArray<string>).includes(v)) return v as ServiceTier;
  throw badRequest(REQ, `${param} must be one of ${SERVICE_TIERS.join(', ')}.`, param);
}

/**
 * `logprobs: true` with `top_logprobs` alternatives (0 when absent). `top_logprobs` alone asks for
 * nothing: OpenAI reads it only beside `logprobs: true`.
 */
function decodeLogprobs(body: Json): number | undefined {
  const on = optBoolean(body.logprobs, REQ, 'logprobs');
  const top = optIntegerInRange(body.top_logprobs, 0, MAX_TOP_LOGPROBS, REQ, 'top_logprobs');
  return on === true ? (top ?? 0) : undefined;
}

/** Reads the OpenAI-only parameters of a Chat body into `req`. */
export function decodeOpenaiParams(body: Json, req: HubRequest): void {
  const tier = decodeServiceTier(body.service_tier, 'service_tier');
  if (tier) req.serviceTier = tier;
  const cacheKey = optString(body.prompt_cache_key, REQ, 'prompt_cache_key');
  if (cacheKey) req.promptCacheKey = cacheKey;
  const logprobs = decodeLogprobs(body);
  if (logprobs !== undefined) req.logprobs = logprobs;
}
