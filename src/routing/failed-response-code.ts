/**
 * A passthrough Responses stream relays OpenAI's events as they are, but its `response.failed`
 * is what Codex decides on, by `response.error.code`: on OpenAI's overload (`server_is_overloaded`,
 * `slow_down`) it ends the turn instead of retrying. Such a failed response goes out with the code
 * a converted stream's gets for it (failedCodeForCodex), nothing else of it changed.
 *
 * `response.failed` is a stream's terminal event, so this runs only for the tick whose last chunk
 * ends with a terminal event (StreamTap.lastEventKind, which the relay asks once per tick
 * anyway): no cost on the chunks of a normal stream. A failed response cut across socket reads
 * is not seen as it passes, and goes out as OpenAI wrote it.
 */
import { isRecord } from '../protocols/chat/guards.js';
import { failedCodeForCodex } from '../protocols/responses/status.js';
import { editedLastEvent, editLastPiece } from './last-event-edit.js';

const FAILED_TYPE = '"response.failed"';

/**
 * When the last piece of this tick's writes ends with a whole `response.failed` whose code Codex
 * would give up on, that piece is replaced by one whose failed response carries ours.
 */
export function recodeFailedResponse(pending: (string | Buffer)[]): void {
  editLastPiece(pending, FAILED_TYPE, recode);
}

/** The piece with its last event's failed-response code replaced, or undefined when it keeps it. */
export function recodedPiece(piece: Buffer): Buffer | undefined {
  return editedLastEvent(piece, FAILED_TYPE, recode);
}

function recode(event: Record<string, unknown>): boolean {
  if (event.type !== 'response.failed' || !isRecord(event.response)) return false;
  const error = event.response.error;
  if (!isRecord(error) || typeof error.code !== 'string') return false;
  const code = failedCodeForCodex(error.code);
  if (code === undefined) return false;
  error.code = code;
  return true;
}
