/**
 * Which of a request's stop sequences a converted body carries, and which it leaves out for
 * routing to hold itself (stop-cut-*.ts): Responses has no stop at all; Anthropic refuses a stop
 * sequence that is only whitespace (PROTOCOLS.md §6.7); OpenAI's Chat takes at most 4 (§2.1), and
 * Chat targets that take more say so (`maxStops`). The encoders send `stopsSent`; routing holds
 * `stopsLeftOut`, so between them every stop holds. An empty stop sequence stops nothing: neither.
 */
import type { EncodeRequestOptions } from './codec.js';
import type { Dialect } from './hub.js';

/** OpenAI's bound on Chat's `stop` list, which servers copying its API keep (maxItems: 4). */
export const CHAT_MAX_STOPS = 4;

/** Anthropic takes a stop sequence with something other than whitespace in it. */
function messagesTakesStop(stop: string): boolean {
  return stop.trim() !== '';
}

/** The stops of `stops` that a `target` body carries; undefined when none. */
export function stopsSent(target: Dialect, stops: readonly string[] | undefined, opts: Pick<EncodeRequestOptions, 'maxStops'>): string[] | undefined {
  if (stops === undefined || target === 'responses') return undefined;
  const sent = target === 'messages' ? stops.filter(messagesTakesStop) : stops.filter((s) => s !== '').slice(0, opts.maxStops ?? CHAT_MAX_STOPS);
  return sent.length > 0 ? sent : undefined;
}

/** The stops of `stops` that a `target` body leaves out; undefined when it carries them all. */
export function stopsLeftOut(target: Dialect, stops: readonly string[] | undefined, opts: Pick<EncodeRequestOptions, 'maxStops'>): string[] | undefined {
  if (stops === undefined || stops.length === 0) return undefined;
  const sent = stopsSent(target, stops, opts);
  const left = stops.filter((s) => s !== '' && !sent?.includes(s));
  return left.length > 0 ? left : undefined;
}
