/**
 * Editing the event a tick's writes end with, just before they go out: what a passthrough relay
 * does to the few upstream events a client would misread as they are (failed-response-code.ts,
 * stream-error-wait.ts). Only a whole event with one `data:` line is read, and only when its start
 * holds one of `marks`; everything around it goes out byte for byte. The relay's watch
 * (last-event-watch.ts) has put the tick's last event whole in its last piece.
 */
import { isRecord } from '../protocols/chat/guards.js';
import { endsWithBlankLine, lastEventStart } from './last-event.js';

/**
 * How far into an event the marks are looked for: the events edited name their type first. A
 * stream's terminal event may be large (response.completed carries the whole answer): it is
 * decoded only when its start holds a mark.
 */
const MARK_WINDOW = 256;

type Edit = (event: Record<string, unknown>) => boolean;

/** Edit the last of this tick's pieces (svc-proxy's own events, strings, are left alone). */
export function editLastPiece(pending: (string | Buffer)[], marks: readonly string[], edit: Edit): void {
  const last = pending[pending.length - 1];
  if (last === undefined || typeof last === 'string') return;
  const edited = editedLastEvent(last, marks, edit);
  if (edited !== undefined) pending[pending.length - 1] = edited;
}

/**
 * The piece with its last event's JSON as `edit` changed it (when it returns true), or undefined:
 * no whole last event, not one data line, no mark in it, not JSON, or nothing to change.
 */
export function editedLastEvent(piece: Buffer, marks: readonly string[], edit: Edit): Buffer | undefined {
  const len = piece.length;
  if (len < 3 || !endsWithBlankLine(piece)) return undefined;
  return editedEvent(piece, Math.max(0, lastEventStart(piece, len - 2)), len - 2, marks, edit);
}

/** The piece with the event in [start, end) (`end`: where its blank line begins) edited, as editedLastEvent. */
export function editedEvent(piece: Buffer, start: number, end: number, marks: readonly string[], edit: Edit): Buffer | undefined {
  const head = piece.toString('latin1', start, Math.min(end, start + MARK_WINDOW));
  if (!marks.some((mark) => head.includes(mark))) return undefined;
  const lines = piece.toString('utf8', start, end).split('\n');
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
  return Buffer.concat([piece.subarray(0, start), Buffer.from(lines.join('\n')), piece.subarray(end)]);
}
