/**
 * When a group moves on to its next target.
 *
 * Move on when the provider could not or would not serve: no answer (connection error, timeout, a
 * redirect), 408, 409, 429, 5xx, a refused credential or model (401, 403, 404), or no credit left (402).
 * Stay on a 4xx the request itself caused — the next target would refuse it too — except the
 * context-length kind (and 413), where a model with a larger window may still take it. A message
 * thread Anthropic no longer holds (a 404) is the client's to replay: no other target holds it.
 */
import { lostThread } from './message-threads.js';
import type { UpstreamFailure } from './upstream-errors.js';

export function shouldFallback(failure: Pick<UpstreamFailure, 'upstreamStatus' | 'contextLength' | 'details'>): boolean {
  const s = failure.upstreamStatus;
  if (lostThread(failure.details)) return false;
  // a redirect is no answer either: a company gateway sends to its login page once its session ends
  if (s === 0 || s >= 500 || (s >= 300 && s < 400)) return true;
  switch (s) {
    case 401:
    case 402:
    case 403:
    case 404:
    case 408:
    case 409:
    case 413:
    case 429:
      return true;
    default:
      return failure.contextLength === true;
  }
}
