/**
 * The command that stores a working key where a provider refused the one it has: a built-in
 * provider's key is replaced with `provider connect`; an endpoint's only by adding the endpoint
 * again (there is no command that changes it in place). `models` and `doctor` both say it.
 */
export function workingKeyFix(slug: string, builtIn: boolean): string {
  return builtIn ? `svc-proxy provider connect ${slug}` : `svc-proxy endpoint remove ${slug}, then endpoint add ${slug} with a working key`;
}
