/**
 * A passthrough Responses stream relays OpenAI's events as they are, but its `response.failed`
 * is what Codex decides on, by `response.error.code`: on OpenAI's overload (`server_is_overloaded`,
 * `slow_down`) it ends the turn instead of retrying. Such a failed response goes out with the code
 * a converted stream's gets for it (failedCodeForCodex), nothing else of it changed.
 *
 * `response.failed` is a stream's terminal event, so this runs only for the tick whose last chunk
 * ends with a terminal event (StreamTap.endsWithTerminal, which the relay asks once per tick
 * anyway): no cost on the chunks of a normal stream. A failed response cut across socket reads
 * is not seen as it passes, and goes out as OpenAI wrote it.
 */
import { isRecord } from '../protocols/chat/guards.js';
import { failedCodeForCodex } from '../protocols/responses/status.js';

const LF = 0x0a;
const BLANK_LINE = Buffer.from('\n\n');
const FAILED_TYPE = '"response.failed"';

/**
 * When the last piece of this tick's writes ends with a whole `response.failed` whose code Codex
 * would give up on, that piece is replaced by one whose failed response carries ours.
 */
export function recodeFailedResponse(pending: (string | Buffer)[]): void {
  const last = pending[pending.length - 1];
  if (last === undefined || typeof last === 'string') return;
  const recoded = recodedPiece(last);
  if (recoded !== undefined) pending[pending.length - 1] = recoded;
}

/** The piece with its last event's failed-response code replaced, or undefined when it keeps it. */
export function recodedPiece(piece: Buffer): Buffer | undefined {
  const len = piece.length;
  if (len < 3 || piece[len - 1] !== LF || piece[len - 2] !== LF) return undefined;
  const before = piece.lastIndexOf(BLANK_LINE, len - 3);
  const start = before === -1 ? 0 : before + 2;
  const lines = piece.toString('utf8', start, len - 2).split('\n');
  const dataAt = lines.findIndex((line) => line.startsWith('data:'));
  // one data line, as OpenAI writes each event; a data split over lines is left as it is
  if (dataAt === -1 || lines.findIndex((line, i) => i > dataAt && line.startsWith('data:')) !== -1) return undefined;
  const data = lines[dataAt]!;
  if (!data.includes(FAILED_TYPE)) return undefined;
  let event: unknown;
  try {
    event = JSON.parse(data.slice(data.charCodeAt(5) === 0x20 ? 6 : 5));
  } catch {
    return undefined;
  }
  if (!isRecord(event) || event.type !== 'response.failed' || !isRecord(event.response)) return undefined;
  const error = event.response.error;
  if (!isRecord(error) || typeof error.code !== 'string') return undefined;
  const code = failedCodeForCodex(error.code);
  if (code === undefined) return undefined;
  error.code = code;
  lines[dataAt] = `data: ${JSON.stringify(event)}`;
  return Buffer.concat([piece.subarray(0, start), Buffer.from(lines.join('\n')), piece.subarray(len - 2)]);
}
