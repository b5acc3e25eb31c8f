/**
 * Anthropic's rate limit inside a passthrough Messages stream (`event: error` with
 * `rate_limit_error`, after the 200 went out) names no wait, while the stream's 200 carried its
 * `anthropic-ratelimit-*-reset` headers: the wait they imply goes into the event's message as a
 * converted stream's gets it ("… Please try again in 20s.", or when a far limit resets), the event
 * otherwise as Anthropic wrote it (withStreamWait says which limit and on whose clock).
 *
 * An error event ends a Messages stream, so this runs only for the tick whose bytes end with one
 * (last-event-watch.ts, asked once per tick anyway); one cut across reads is held back until it is
 * whole, then edited.
 */
import { isRecord } from '../protocols/chat/guards.js';
import type { AnswerHeaders } from '../providers/retry-wait.js';
import { editLastPiece } from './last-event-edit.js';
import { withStreamWait } from './upstream-errors.js';

const RATE_LIMIT_TYPE = '"rate_limit_error"';

/** Put the wait the stream's 200 headers imply into a rate-limit error event that ends this tick's writes. */
export function addWaitToRateLimitEvent(pending: (string | Buffer)[], answerHeaders: AnswerHeaders | undefined, answerDate: string | string[] | undefined): void {
  if (answerHeaders === undefined) return;
  editLastPiece(pending, [RATE_LIMIT_TYPE], (event) => {
    const error = event.error;
    if (event.type !== 'error' || !isRecord(error) || error.type !== 'rate_limit_error' || typeof error.message !== 'string') return false;
    const message = error.message;
    const waited = withStreamWait({ status: 429, code: 'upstream_rate_limited', message, upstreamStatus: 429 }, {}, answerHeaders, answerDate);
    if (waited.message === message) return false;
    error.message = waited.message;
    return true;
  });
}
