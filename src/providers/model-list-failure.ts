/**
 * The wording of a model list refused for its credential, shared by the catalog that writes it
 * and `svc-proxy models`, which then says how to store a working key (kept apart from the
 * catalog so the CLI loads no HTTP client to read it).
 */
export const REFUSED_CREDENTIAL = 'the provider refused the credential';

/** Whether a failure reason says the provider refused the stored credential (401/403). */
export function isRefusedCredential(reason: string): boolean {
  return reason.startsWith(REFUSED_CREDENTIAL);
}
