/**
 * A small JSON call's answer as text (model lists, token counts, a local server's probe), read
 * whole by upstreamAnswer. Any answer over `limitBytes`, an error's too, fails as upstream_reset:
 * these callers parse what they get, and a huge body is no answer to a JSON call.
 */
import { AnswerTooLarge } from './read-all.js';
import { upstreamAnswer } from './upstream-answer.js';
import { toUpstreamError, UpstreamError, type UpstreamRequest } from './upstream-client.js';
import { displayOrigin } from './base-url.js';

export interface UpstreamText {
  status: number;
  /** As UpstreamResponse's: the safe subset, and on an error status the `date`. */
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Rejects with an UpstreamError when no whole answer came. */
export async function upstreamText(req: UpstreamRequest, limitBytes: number): Promise<UpstreamText> {
  // an error's body is cut, not refused, by upstreamAnswer: one byte more tells a cut one
  const answer = await upstreamAnswer(req, { answerBytes: limitBytes, errorBytes: limitBytes + 1 });
  const { bytes } = answer;
  if (bytes === undefined || bytes.length > limitBytes) {
    if (bytes !== undefined || answer.bodyError instanceof AnswerTooLarge) {
      throw new UpstreamError('upstream_reset', `${displayOrigin(req.url)} sent a response larger than ${limitBytes} bytes.`);
    }
    throw toUpstreamError(answer.bodyError, req.url);
  }
  return { status: answer.status, headers: answer.headers, text: bytes.toString('utf8') };
}
