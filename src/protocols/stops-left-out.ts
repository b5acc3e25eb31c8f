/**
 * The stop sequences a request converted to a dialect cannot carry, which routing then holds
 * itself (stop-cut-*.ts): Responses has no stop at all, and Anthropic refuses a stop sequence that
 * is only whitespace (PROTOCOLS.md §6.7), so the Messages encoder leaves those out. Chat takes
 * every stop.
 */
import type { Dialect } from './hub.js';

/** Anthropic takes a stop sequence with something other than whitespace in it. */
export function messagesTakesStop(stop: string): boolean {
  return stop.trim() !== '';
}

/** The stops of `stops` that a `target` body leaves out; undefined when it carries them all. */
export function stopsLeftOut(target: Dialect, stops: readonly string[] | undefined): string[] | undefined {
  if (stops === undefined || stops.length === 0 || target === 'chat') return undefined;
  const left = target === 'responses' ? [...stops] : stops.filter((s) => !messagesTakesStop(s));
  return left.length > 0 ? left : undefined;
}
