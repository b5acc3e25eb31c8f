/**
 * The one place a refused connection gets its target's hint ("Is Ollama running? …"), so every path
 * that calls a server — generation, token counting, the model list (and so `svc-proxy models` and
 * doctor, which read its failures) — says the same. Only ever on a failure: nothing on the way of an
 * answer.
 */
import type { ProviderAdapter } from './types.js';
import { UpstreamError } from './upstream-error.js';

export function refusedConnectionHint(err: unknown, target: { adapter: ProviderAdapter; baseUrl: string }): string | undefined {
  return err instanceof UpstreamError && err.socketCode === 'ECONNREFUSED' ? target.adapter.refusedHint?.(target.baseUrl) : undefined;
}

/** `message` with the hint after it, when there is one. */
export function withRefusedHint(message: string, err: unknown, target: { adapter: ProviderAdapter; baseUrl: string }): string {
  const hint = refusedConnectionHint(err, target);
  return hint ? `${message} ${hint}` : message;
}
