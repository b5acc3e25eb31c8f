/**
 * Logprobs as Responses gives them — on an answer's output_text parts and on each
 * `response.output_text.delta` (`{token, logprob, bytes?, top_logprobs}`; deltas carry no bytes)
 * — into the hub's. Entries that are not token/logprob pairs are skipped.
 */
import type { TokenLogprob } from '../hub.js';
import { isObject } from './json.js';

function bytesOf(v: unknown): number[] | undefined {
  return Array.isArray(v) && v.every((b): b is number => typeof b === 'number') ? v : undefined;
}

function pair(v: unknown): { token: string; logprob: number; bytes?: number[] } | undefined {
  if (!isObject(v) || typeof v.token !== 'string' || typeof v.logprob !== 'number') return undefined;
  const bytes = bytesOf(v.bytes);
  return bytes ? { token: v.token, logprob: v.logprob, bytes } : { token: v.token, logprob: v.logprob };
}

/** A wire `logprobs` array → hub entries; undefined when it holds none. */
export function logprobsFromWire(v: unknown): TokenLogprob[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: TokenLogprob[] = [];
  for (const entry of v) {
    const token = pair(entry);
    if (!token || !isObject(entry)) continue;
    const top = Array.isArray(entry.top_logprobs) ? entry.top_logprobs.map(pair).filter((t) => t !== undefined) : [];
    // a literal, not { ...token, top }: on Node 20 a spread copy that gains a key gets a hidden class per call
    out.push(token.bytes ? { token: token.token, logprob: token.logprob, bytes: token.bytes, top } : { token: token.token, logprob: token.logprob, top });
  }
  return out.length > 0 ? out : undefined;
}

