/**
 * An upstream that answers with a redirect (a company gateway sending to its sign-in page once its
 * session ended, a base URL that moved): svc-proxy follows none — the request would go with the
 * provider's credential to wherever it points. A generation (routing/upstream-redirect.ts) and a
 * model list fetch (model-list-errors.ts) say so alike, naming where it pointed: that URL's origin
 * only, as its user info and query may hold credentials.
 */
export const UPSTREAM_REDIRECT = 'upstream_redirect';

export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** What happened and what to do, without the provider's name (the caller puts it where it goes). */
export function redirectReason(status: number, location: string | undefined): string {
  const to = location === undefined ? undefined : originOf(location);
  return `the provider answered with a redirect (HTTP ${status}${to ? ` to ${to}` : ''}), which svc-proxy does not follow. Check the provider's base URL, or sign in to the gateway in front of it.`;
}

/** An absolute http(s) URL's origin, without its user info; undefined for anything else (a relative Location). */
function originOf(location: string): string | undefined {
  if (!/^https?:\/\//i.test(location)) return undefined;
  try {
    const url = new URL(location);
    return `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}
