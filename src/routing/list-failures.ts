/**
 * A provider whose model list failed, as GET …/models and GET …/models/{id} show it: one log
 * attempt per provider (its status and code, as a failed generation's attempt reads, so
 * `svc-proxy logs`, the TUI's detail pane and its providers' last errors show it), and for one
 * model of that provider its failure as the error, instead of a model_not_found the provider
 * never said.
 */
import { ProtocolError } from '../protocols/errors.js';
import type { ProviderListFailure } from '../providers/model-list-failure.js';
import { redactSecret } from './redact.js';
import type { RequestRecord } from './request-log.js';

export function logListFailures(record: RequestRecord, failed: readonly ProviderListFailure[]): void {
  for (const f of failed) record.attempt({ target: f.provider, status: f.upstreamStatus, latencyMs: f.latencyMs, errorCode: f.code });
}

/** The error for model `id` of a provider whose list failed: the provider's status class and code, its slug first. */
export function listFailureError(f: ProviderListFailure, id: string, credential: string | undefined): ProtocolError {
  const end = /[.?!]$/.test(f.reason) ? '' : '.';
  const message = `${f.provider}: "${id.slice(0, 200)}" cannot be looked up, its model list could not be fetched: ${f.reason}${end}`;
  return new ProtocolError(f.status, f.code, redactSecret(message, credential), 'model');
}
