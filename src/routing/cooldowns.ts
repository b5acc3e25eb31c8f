/**
 * Targets that just failed in a way that lasts a while — no answer in time, unreachable, rate
 * limited, overloaded, a 5xx, a refused key — cool down: while that lasts a group tries its other
 * targets first and the cooling one only after them (never not at all: a group whose targets all
 * cool still answers). Without it, a hung first target cost every request through the group the
 * whole headers timeout (600 s by default) before the fallback, and a 429's Retry-After was asked
 * again at once. A success ends the cooldown. Keyed by target (`provider/model`), so groups that
 * share a target share what was learnt of it.
 */
import type { UpstreamFailure } from './upstream-errors.js';
import { advisedWaitMs, LONGEST_RESET_MS, MAX_ADVISED_WAIT_MS } from '../providers/retry-wait.js';

/** Longest cooldown after a wait to sit out, whatever a Retry-After says: the longest such wait a client is told. */
export const MAX_COOLDOWN_MS = MAX_ADVISED_WAIT_MS;
/** No answer at all (timeout, refused, reset): the server is down or the network is. */
const UNREACHABLE_MS = 30_000;
/** Rate limited or overloaded without a Retry-After, or a 5xx. */
const BUSY_MS = 15_000;
/** A refused key, no credit or quota left, no such model, a redirect: nothing a retry in seconds fixes. */
const REFUSED_MS = 60_000;

interface Cooling {
  until: number;
  code: string;
}

export class Cooldowns {
  private readonly cooling = new Map<string, Cooling>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Note a failure of `target` that made (or would make) a group fall back. */
  failed(target: string, failure: UpstreamFailure): void {
    const ms = cooldownFor(failure);
    if (ms > 0) this.cooling.set(target, { until: this.now() + ms, code: failure.code });
  }

  succeeded(target: string): void {
    if (this.cooling.size > 0) this.cooling.delete(target);
  }

  /** Why `target` is cooling now (its last failure's code and the seconds left), or undefined. */
  coolingDown(target: string): { code: string; secondsLeft: number } | undefined {
    if (this.cooling.size === 0) return undefined;
    const c = this.cooling.get(target);
    if (!c) return undefined;
    const left = c.until - this.now();
    if (left <= 0) {
      this.cooling.delete(target);
      return undefined;
    }
    return { code: c.code, secondsLeft: Math.ceil(left / 1000) };
  }
}

/** How long a failure sends its target to the back of its groups; 0 when it says nothing about the target. */
export function cooldownFor(failure: Pick<UpstreamFailure, 'code' | 'upstreamStatus' | 'contextLength' | 'retryAfter' | 'retryAfterMs' | 'resetsAt'>): number {
  // this request was too long for the model, or too large: the next one may well fit
  if (failure.contextLength || failure.upstreamStatus === 413) return 0;
  // a per-day limit (a used-up Gemini quota too, until midnight Pacific): asking first again every
  // few minutes would only add a refused round trip to a request until it resets; the target is
  // still asked when all others fail, and a restart forgets
  if (failure.resetsAt !== undefined) return Math.min(Math.max(0, failure.resetsAt - Date.now()), LONGEST_RESET_MS);
  // a used-up quota is a billing failure whatever status it came with (OpenAI's and Gemini's 429):
  // it comes back with credit or a new day, not after a rate limit's seconds (it carries no wait)
  if (failure.code === 'upstream_billing') return REFUSED_MS;
  // a Retry-After the upstream sent, or one derived from its rate-limit reset headers (upstream-errors.ts)
  const advised = advisedWaitMs(failure.retryAfter, failure.retryAfterMs, Date.now());
  if (advised !== undefined) return Math.min(advised, MAX_COOLDOWN_MS);
  const s = failure.upstreamStatus;
  if (s === 0) return UNREACHABLE_MS;
  // a redirect: a gateway sending to its login page, which lasts until someone signs in again
  if (s === 401 || s === 402 || s === 403 || s === 404 || (s >= 300 && s < 400)) return REFUSED_MS;
  if (s === 408 || s === 429 || s >= 500) return BUSY_MS;
  return 0;
}
