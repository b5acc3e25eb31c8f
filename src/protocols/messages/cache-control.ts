/**
 * Anthropic prompt-cache hints: read from a Messages client, written for a Messages upstream.
 *
 * Anthropic accepts at most 4 cache breakpoints per request (the top-level automatic one takes a
 * slot) and none on thinking blocks. Converted requests may carry more (a Chat client marking
 * every message), so the encoder keeps the last ones: the longest cached prefixes.
 */
import type { CacheControl } from '../hub.js';
import { badRequest } from '../errors.js';
import { isObject, type JsonObject } from './json.js';

export const MAX_CACHE_BREAKPOINTS = 4;

/** `cache_control` on a request object; absent/null → undefined, anything else malformed → 400. */
export function decodeCacheControl(v: unknown, path: string): CacheControl | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v) || v.type !== 'ephemeral') {
    throw badRequest('invalid_request', `${path} must be {"type":"ephemeral"} with an optional ttl.`, path);
  }
  if (v.ttl === undefined || v.ttl === null) return { type: 'ephemeral' };
  if (v.ttl !== '5m' && v.ttl !== '1h') throw badRequest('invalid_request', `${path}.ttl must be "5m" or "1h".`, `${path}.ttl`);
  return { type: 'ephemeral', ttl: v.ttl };
}

export function encodeCacheControl(cc: CacheControl): { type: 'ephemeral'; ttl?: '5m' | '1h' } {
  return cc.ttl ? { type: 'ephemeral', ttl: cc.ttl } : { type: 'ephemeral' };
}

/**
 * `block` with a `cache_control` copy of `cc` when hints are kept for this target. Set in place
 * (every caller passes a block it has just built): a spread copy that then gains a key gets a
 * hidden class of its own on every call on Node 20's V8.
 */
export function withCacheControl<T extends object>(block: T, cc: CacheControl | undefined, keep: boolean): T {
  if (cc && keep) (block as T & { cache_control: unknown }).cache_control = encodeCacheControl(cc);
  return block;
}

/**
 * Enforce the breakpoint limit on an encoded Messages body, in place. Walks tools, system, then
 * message blocks (the order Anthropic builds the prefix in, nested tool_result blocks included),
 * strips every hint from thinking blocks, and drops the earliest hints beyond the limit. Returns
 * how many block hints are left.
 */
export function limitCacheBreakpoints(body: JsonObject): number {
  const holders: JsonObject[] = [];
  const visit = (block: unknown): void => {
    if (!isObject(block)) return;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      delete block.cache_control;
      return;
    }
    if (block.cache_control !== undefined) holders.push(block);
    if (block.type === 'tool_result' && Array.isArray(block.content)) block.content.forEach(visit);
  };
  if (Array.isArray(body.tools)) body.tools.forEach(visit);
  if (Array.isArray(body.system)) body.system.forEach(visit);
  if (Array.isArray(body.messages)) {
    for (const m of body.messages) if (isObject(m) && Array.isArray(m.content)) m.content.forEach(visit);
  }
  const slots = MAX_CACHE_BREAKPOINTS - (body.cache_control !== undefined ? 1 : 0);
  const excess = holders.length - slots;
  for (let i = 0; i < excess; i++) delete holders[i]!.cache_control;
  return Math.min(holders.length, slots);
}
