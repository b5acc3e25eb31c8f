/**
 * Query parameter names that carry a credential (key, api_key, X-Api-Key, token, access_token,
 * sig, X-Amz-Signature, secret, password …): one list, so a base URL is refused (validateUrl) for
 * exactly the names whose values displayUrl masks.
 */
const CREDENTIAL_QUERY_NAME = /(?:key|token|secret|password|passwd|pwd|sig|signature|auth|credential)s?$/i;

export function isCredentialQueryName(name: string): boolean {
  return CREDENTIAL_QUERY_NAME.test(name);
}
