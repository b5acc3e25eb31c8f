/**
 * An upstream that answers with a redirect (a company gateway sending to its sign-in page once its
 * session ended, a base URL that moved): svc-proxy follows none — the request would go with the
 * provider's credential to wherever it points — and a 3xx means nothing to an SDK client, whatever
 * body came with it. It is a bad gateway with its own code, naming the provider and where it
 * pointed: that URL's origin only, as its user info and query may hold credentials. Its upstream
 * status stays the 3xx (fallback.ts, cooldowns.ts read it).
 */
import { redactSecret } from './redact.js';
import type { UpstreamFailure } from './upstream-errors.js';

export const UPSTREAM_REDIRECT = 'upstream_redirect';

export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

export function redirectFailure(slug: string, status: number, location: string | undefined, credential: string | undefined): UpstreamFailure {
  const to = location === undefined ? undefined : originOf(location);
  const message = `${slug}: the provider answered with a redirect (HTTP ${status}${to ? ` to ${to}` : ''}), which svc-proxy does not follow. Check the provider's base URL, or sign in to the gateway in front of it.`;
  return { status: 502, code: UPSTREAM_REDIRECT, message: redactSecret(message, credential), upstreamStatus: status };
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
