/**
 * What the client hears when every target of a group failed: the last failure's status and code,
 * its message naming the targets tried before it, and the soonest retry advice any of them gave —
 * a rate-limited first target's Retry-After still tells the SDK when to come back after the last
 * one was merely unreachable.
 */
import type { UpstreamFailure } from './upstream-errors.js';

export interface TriedTarget {
  label: string;
  failure: UpstreamFailure;
}

export function allTargetsFailed(tried: readonly TriedTarget[]): UpstreamFailure {
  const last = tried[tried.length - 1]!.failure;
  if (tried.length === 1) return last;
  const before = tried.slice(0, -1);
  const out: UpstreamFailure = {
    ...last,
    message: `${last.message} (tried before it: ${before.map((t) => `${t.label} ${t.failure.status} ${t.failure.code}`).join(', ')})`,
  };
  if (out.retryAfter === undefined) {
    const soonest = soonestOf(before.map((t) => t.failure.retryAfter));
    if (soonest !== undefined) out.retryAfter = soonest;
  }
  if (out.retryAfterMs === undefined) {
    const soonest = soonestOf(before.map((t) => t.failure.retryAfterMs));
    if (soonest !== undefined) out.retryAfterMs = soonest;
  }
  return out;
}

/** The smallest of the numeric values (an HTTP-date Retry-After is kept only when no number is given). */
function soonestOf(values: ReadonlyArray<string | undefined>): string | undefined {
  let best: string | undefined;
  let bestN = Infinity;
  let date: string | undefined;
  for (const v of values) {
    if (v === undefined) continue;
    const n = Number(v);
    if (v.trim() !== '' && Number.isFinite(n)) {
      if (n < bestN) {
        bestN = n;
        best = v;
      }
    } else date ??= v;
  }
  return best ?? date;
}
