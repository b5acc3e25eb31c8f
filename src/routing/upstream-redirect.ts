/**
 * An upstream that answers with a redirect (a company gateway sending to its sign-in page once its
 * session ended, a base URL that moved): svc-proxy follows none — the request would go with the
 * provider's credential to wherever it points — and a 3xx means nothing to an SDK client, whatever
 * body came with it. It is a bad gateway with its own code, naming the provider and where it
 * pointed (providers/redirect-answer.ts). Its upstream status stays the 3xx (fallback.ts,
 * cooldowns.ts read it).
 */
import { redirectReason, UPSTREAM_REDIRECT } from '../providers/redirect-answer.js';
import { redactSecret } from './redact.js';
import type { UpstreamFailure } from './upstream-errors.js';

export { isRedirect, UPSTREAM_REDIRECT } from '../providers/redirect-answer.js';

export function redirectFailure(slug: string, status: number, location: string | undefined, credential: string | undefined): UpstreamFailure {
  return { status: 502, code: UPSTREAM_REDIRECT, message: redactSecret(`${slug}: ${redirectReason(status, location)}`, credential), upstreamStatus: status };
}
