/**
 * A provider whose model list failed, as GET …/models and GET …/models/{id} show it (a group's
 * protocol B list too, which asks its targets' providers for their windows): one log
 * attempt per provider (its status and code, as a failed generation's attempt reads, so
 * `svc-proxy logs`, the TUI's detail pane and its providers' last errors show it), and for one
 * model of that provider its failure as the error, instead of a model_not_found the provider
 * never said.
 */
import { ProtocolError } from '../protocols/errors.js';
import { AdvisedError } from './advised-error.js';
import type { ProviderListFailure } from '../providers/model-list-failure.js';
import { waitAdvice } from '../providers/retry-wait.js';
import { beyondAdvice, farResetWords } from '../providers/far-reset.js';
import { redactSecret } from './redact.js';
import type { RequestRecord } from './request-log.js';

export function logListFailures(record: RequestRecord, failed: readonly ProviderListFailure[]): void {
  for (const f of failed) record.attempt({ target: f.provider, status: f.upstreamStatus, latencyMs: f.latencyMs, errorCode: f.code });
}

/**
 * The error for model `id` of a provider whose list failed: the provider's status class and code,
 * its slug first, and the wait it named still left (a cached failure is answered for a while); a
 * limit that resets beyond the wait to sit out says when, and not to retry (far-reset.ts).
 */
export function listFailureError(f: ProviderListFailure, id: string, credential: string | undefined, now = Date.now()): ProtocolError {
  const left = f.retryAt === undefined ? 0 : Math.ceil(f.retryAt - now);
  const far = left > 0 && beyondAdvice(left);
  const reason = far ? `${f.reason.replace(/[\s.]+$/, '')}; ${farResetWords(f.status, left, now)}` : f.reason;
  const end = /[.?!]$/.test(reason) ? '' : '.';
  const message = redactSecret(`${f.provider}: "${id.slice(0, 200)}" cannot be looked up, its model list could not be fetched: ${reason}${end}`, credential);
  if (left <= 0) return new ProtocolError(f.status, f.code, message, 'model');
  const { retryAfter, retryAfterMs } = waitAdvice(left);
  const advice: Record<string, string> = { 'retry-after': retryAfter, 'retry-after-ms': retryAfterMs };
  if (far) advice['x-should-retry'] = 'false';
  return new AdvisedError(f.status, f.code, message, advice, 'model');
}
