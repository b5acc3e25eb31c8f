/**
 * Editing the event a tick's writes end with, just before they go out: what a passthrough relay
 * does to the few upstream events a client would misread as they are (failed-response-code.ts,
 * stream-error-wait.ts). Only a whole last event with one `data:` line is read, and only when
 * its start holds `mark`; everything before it goes out byte for byte.
 */
import { isRecord } from '../protocols/chat/guards.js';

const LF = 0x0a;
const BLANK_LINE = Buffer.from('\n\n');
/**
 * How far into the last event `mark` is looked for: the events edited name their type first. A
 * stream's terminal event may be large (response.completed carries the whole answer): it is
 * decoded only when its start holds the mark.
 */
const MARK_WINDOW = 256;

/** Edit the last of this tick's pieces (svc-proxy's own events, strings, are left alone). */
export function editLastPiece(pending: (string | Buffer)[], mark: string, edit: (event: Record<string, unknown>) => boolean): void {
  const last = pending[pending.length - 1];
  if (last === undefined || typeof last === 'string') return;
  const edited = editedLastEvent(last, mark, edit);
  if (edited !== undefined) pending[pending.length - 1] = edited;
}

/**
 * The piece with its last event's JSON as `edit` changed it (when it returns true), or undefined:
 * no whole last event, not one data line, no `mark` in it, not JSON, or nothing to change.
 */
export function editedLastEvent(piece: Buffer, mark: string, edit: (event: Record<string, unknown>) => boolean): Buffer | undefined {
  const len = piece.length;
  if (len < 3 || piece[len - 1] !== LF || piece[len - 2] !== LF) return undefined;
  const before = piece.lastIndexOf(BLANK_LINE, len - 3);
  const start = before === -1 ? 0 : before + 2;
  if (!piece.toString('latin1', start, Math.min(len - 2, start + MARK_WINDOW)).includes(mark)) return undefined;
  const lines = piece.toString('utf8', start, len - 2).split('\n');
  const dataAt = lines.findIndex((line) => line.startsWith('data:'));
  // one data line, as OpenAI and Anthropic write each event; a data split over lines is left as it is
  if (dataAt === -1 || lines.findIndex((line, i) => i > dataAt && line.startsWith('data:')) !== -1) return undefined;
  const data = lines[dataAt]!;
  let event: unknown;
  try {
    event = JSON.parse(data.slice(data.charCodeAt(5) === 0x20 ? 6 : 5));
  } catch {
    return undefined;
  }
  if (!isRecord(event) || !edit(event)) return undefined;
  lines[dataAt] = `data: ${JSON.stringify(event)}`;
  return Buffer.concat([piece.subarray(0, start), Buffer.from(lines.join('\n')), piece.subarray(len - 2)]);
}
