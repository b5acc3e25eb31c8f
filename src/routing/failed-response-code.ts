/**
 * A passthrough Responses stream relays OpenAI's events as they are, but its `response.failed`
 * is what Codex decides on, by `response.error.code`: on OpenAI's overload (`server_is_overloaded`,
 * `slow_down`) it ends the turn instead of retrying. Such a failed response goes out with the code
 * a converted stream's gets for it (failedCodeForCodex), nothing else of it changed; and so does
 * the `error` event OpenAI sends before it (nested `{"error":{"code":…}}`, which openai-node throws
 * as an APIError with that code, or flat `{"code":…}`), so the two agree.
 *
 * Both end what arrived at once (the failed response its stream), so this runs only for the tick
 * whose last event is a terminal or an error event (last-event-watch.ts, asked once per tick
 * anyway): no cost on the chunks of a normal stream. One cut across socket reads is held back
 * until it is whole, then edited.
 */
import { isRecord } from '../protocols/chat/guards.js';
import { failedCodeForCodex } from '../protocols/responses/status.js';
import { lastEventStart } from './last-event.js';
import { editedEvent, editedLastEvent } from './last-event-edit.js';

const LF = 0x0a;
/**
 * The error event's type as its data names it, not a bare `"error"`: response.completed's start
 * holds `"error":null`, and it is every stream's last event (it repeats the whole answer).
 */
const ERROR_MARK = ['"type":"error"', '"type": "error"'];
const MARKS = ['"response.failed"', ...ERROR_MARK];

/**
 * When this tick's writes end with a whole `response.failed` or `error` event whose code Codex
 * would give up on, it goes out with ours — and with a failed response, the error event right
 * before it too.
 */
export function recodeFailedResponse(pending: (string | Buffer)[]): void {
  // one piece, so the error event before a failed response is whole in it too (the pieces would be joined for the write anyway)
  if (pending.length > 1 && pending.every((p) => typeof p !== 'string')) pending.splice(0, pending.length, Buffer.concat(pending as Buffer[]));
  const n = pending.length;
  const piece = pending[n - 1];
  if (piece === undefined || typeof piece === 'string') return;
  const len = piece.length;
  if (len < 3 || piece[len - 1] !== LF || piece[len - 2] !== LF) return;
  const start = Math.max(0, lastEventStart(piece, len - 2));
  let type: unknown;
  const edited = editedEvent(piece, start, len - 2, MARKS, (event) => {
    type = event.type;
    return recode(event);
  });
  let out = edited ?? piece;
  if (type === 'response.failed') {
    if (start >= 2) out = editedEvent(out, Math.max(0, lastEventStart(out, start - 2)), start - 2, ERROR_MARK, recodeError) ?? out;
    else {
      const before = pending[n - 2];
      if (before !== undefined && typeof before !== 'string') pending[n - 2] = editedLastEvent(before, ERROR_MARK, recodeError) ?? before;
    }
  }
  pending[n - 1] = out;
}

function recode(event: Record<string, unknown>): boolean {
  if (event.type === 'error') return recodeError(event);
  if (event.type !== 'response.failed' || !isRecord(event.response)) return false;
  return recodeIn(event.response.error);
}

/** OpenAI's error event: its code nested in `error` (as it sends an overload) or at the top (as documented). */
function recodeError(event: Record<string, unknown>): boolean {
  if (event.type !== 'error') return false;
  return recodeIn(isRecord(event.error) ? event.error : event);
}

function recodeIn(error: unknown): boolean {
  if (!isRecord(error) || typeof error.code !== 'string') return false;
  const code = failedCodeForCodex(error.code);
  if (code === undefined) return false;
  error.code = code;
  return true;
}
