/**
 * What the client hears when every target of a group failed: the last failure's status and code,
 * its message naming the targets tried before it, and the soonest retry advice any of them gave —
 * a rate-limited first target's Retry-After still tells the SDK when to come back after the last
 * one was merely unreachable.
 *
 * A target whose limit resets hours from now (its failure says not to retry, far-reset.ts) speaks
 * for itself only: while another target failed in a way a retry may get past, the group is worth
 * retrying (the limited target cools until its reset, so the retry asks the others first), and its
 * hours are no wait for the group. Only when every target's limit is of that kind does the group's
 * answer say not to retry. An `x-should-retry: false` the last target's upstream sent itself is
 * likewise its own: the group's answer keeps it only when no earlier target failed in a way worth
 * retrying.
 */
import type { UpstreamFailure } from './upstream-errors.js';
import { advisedWaitMs, retryableStatus } from '../providers/retry-wait.js';

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
  // one rule for both kinds of "not to retry" (a far reset, the upstream's own word): a far reset
  // says false itself, so an earlier one is never a reason to retry the group
  const retryAgain = before.some((t) => worthRetrying(t.failure));
  if (out.resetsAt !== undefined && retryAgain) {
    delete out.resetsAt;
    delete out.retryAfter;
    delete out.retryAfterMs;
  }
  if (out.shouldRetry === 'false' && retryAgain) delete out.shouldRetry;
  const retryable = before.map((t) => t.failure).filter((f) => f.resetsAt === undefined);
  // the last target's own advice stands; without any, the soonest an earlier one gave goes, its
  // retry-after and retry-after-ms together: the SDKs read retry-after-ms first, so one target's
  // beside another's sooner retry-after would have them wait the longer
  if (out.retryAfter === undefined && out.retryAfterMs === undefined) {
    const soonest = soonestAdvised(retryable, Date.now());
    if (soonest?.retryAfter !== undefined) out.retryAfter = soonest.retryAfter;
    if (soonest?.retryAfterMs !== undefined) out.retryAfterMs = soonest.retryAfterMs;
  }
  return out;
}

/** Whether the official SDKs would retry this failure: its x-should-retry when it sent one, else its status. */
function worthRetrying(f: UpstreamFailure): boolean {
  if (f.shouldRetry !== undefined) return f.shouldRetry === 'true';
  // the SDKs also retry a 409 (a lock timeout), which gets no wait advice from us
  return retryableStatus(f.status) || f.status === 409;
}

/** The failure whose retry advice names the shortest wait (one naming none still ahead, an old date, only when no other names one). */
function soonestAdvised(failures: readonly UpstreamFailure[], now: number): UpstreamFailure | undefined {
  let best: UpstreamFailure | undefined;
  let bestMs = Infinity;
  let unread: UpstreamFailure | undefined;
  for (const f of failures) {
    if (f.retryAfter === undefined && f.retryAfterMs === undefined) continue;
    const ms = advisedWaitMs(f.retryAfter, f.retryAfterMs, now);
    if (ms === undefined) unread ??= f;
    else if (ms < bestMs) {
      bestMs = ms;
      best = f;
    }
  }
  return best ?? unread;
}
