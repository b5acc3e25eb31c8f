/**
 * A provider's model list that could not be fetched: the wording of a refused credential, shared
 * by the catalog that writes it and `svc-proxy models`, which then says how to store a working
 * key, and the failure as routing answers and logs it (kept apart from the catalog so the CLI
 * loads no HTTP client to read it).
 */
export const REFUSED_CREDENTIAL = 'the provider refused the credential';

/** Whether a failure reason says the provider refused the stored credential (401/403). */
export function isRefusedCredential(reason: string): boolean {
  return reason.startsWith(REFUSED_CREDENTIAL);
}

/** Why one provider's latest list fetch failed. Nothing in it names a credential. */
export interface ProviderListFailure {
  /** The provider, endpoint or local slug. */
  provider: string;
  /** What went wrong, in words for people (`svc-proxy models`, doctor). */
  reason: string;
  /** The status a client is answered with: the provider's error status, else 502 (504 for no answer in time). */
  status: number;
  /** The stable code a generation failing the same way gets (upstream_auth_failed, upstream_unreachable …). */
  code: string;
  /** The status the provider answered with, 0 for none, as a log attempt records it. */
  upstreamStatus: number;
  /** How long the failed fetch took. */
  latencyMs: number;
  /** When the provider said to try again (epoch ms): its retry-after, or the reset of the rate limit it hit. */
  retryAt?: number;
}

/** A failed list as GET /admin/models reports it (`failed`, by slug): its stable code and its reason. */
export type ListFailureNote = Pick<ProviderListFailure, 'code' | 'reason'>;

/** Failed lists as GET /admin/models reports them: by slug, each its code and reason. */
export function listFailureNotes(failed: readonly ProviderListFailure[]): Record<string, ListFailureNote> {
  const out: Record<string, ListFailureNote> = {};
  for (const f of failed) out[f.provider] = { code: f.code, reason: f.reason };
  return out;
}

/** A failed list as the CLI and TUI read it: a daemon from before the codes sent the reason alone. */
export type ListFailureRead = Pick<ListFailureNote, 'reason'> & Partial<Pick<ListFailureNote, 'code'>>;

/** The reason, after its code when there is one: `upstream_auth_failed: the provider refused the credential (401)`. */
export function listFailureText(f: ListFailureRead): string {
  return f.code ? `${f.code}: ${f.reason}` : f.reason;
}
