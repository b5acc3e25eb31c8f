/**
 * The last event of the bytes a passthrough relay is about to write, found and named cheaply: the
 * one finder the relay's per-tick look (last-event-watch.ts) and the edit of that event
 * (last-event-edit.ts) share. Responses and Messages events name their type first (an `event:`
 * line, or a data line that opens `{"type":…`), so a few byte comparisons at the event's start
 * tell the events that matter from the rest.
 */
import type { Dialect } from '../protocols/hub.js';

const LF = 0x0a;

/** What an event is, as far as the relay cares: its stream's terminal event, an error event, or neither. */
export type LastEventKind = 'terminal' | 'error' | undefined;

/**
 * Where the event whose text ends at `end` begins: just past the last blank line before `end`,
 * or -1 when there is none in `buf`. A walk back over line ends (memrchr under Buffer#lastIndexOf
 * with a byte), about twice as fast as searching for the two-byte blank line.
 */
export function lastEventStart(buf: Buffer, end: number): number {
  let i = end - 1;
  while (i >= 1) {
    const lf = buf.lastIndexOf(LF, i);
    if (lf < 1) return -1;
    if (buf[lf - 1] === LF) return lf + 1;
    i = lf - 1;
  }
  return -1;
}

/** The bytes end with a blank line: an event boundary. */
export function endsWithBlankLine(buf: Buffer): boolean {
  const len = buf.length;
  return len >= 2 && buf[len - 1] === LF && buf[len - 2] === LF;
}

/** How an event of these types begins, with or without its `event:` line (some servers send only data lines). */
function typeStarts(types: readonly string[]): Buffer[] {
  return types.flatMap((t) => (t === '[DONE]' ? [Buffer.from('data: [DONE]'), Buffer.from('data:[DONE]')] : [Buffer.from(`event: ${t}`), Buffer.from(`data: {"type":"${t}"`)]));
}

/** The last event of a complete stream (Chat's `[DONE]` stands for its terminator line). */
export const TERMINAL_TYPES: Readonly<Record<Dialect, readonly string[]>> = {
  chat: ['[DONE]'],
  messages: ['message_stop'],
  responses: ['response.completed', 'response.incomplete', 'response.failed'],
};
const TERMINAL_STARTS: Readonly<Record<Dialect, readonly Buffer[]>> = {
  chat: typeStarts(TERMINAL_TYPES.chat),
  messages: typeStarts(TERMINAL_TYPES.messages),
  responses: typeStarts(TERMINAL_TYPES.responses),
};
/**
 * Error events the relay edits as they pass (Messages: stream-error-wait.ts; Responses, the one
 * before response.failed: failed-response-code.ts). Chat's are chat-error-tail.ts's.
 */
const ERROR_STARTS: Readonly<Record<Dialect, readonly Buffer[]>> = {
  chat: [],
  messages: typeStarts(['error']),
  responses: typeStarts(['error']),
};
/** The events the relay edits, so holds back while one is cut across reads: ERROR_STARTS, and Responses' response.failed. */
export const EDITED_STARTS: Readonly<Record<Dialect, readonly Buffer[]>> = {
  chat: [],
  messages: ERROR_STARTS.messages,
  responses: [...typeStarts(['response.failed']), ...ERROR_STARTS.responses],
};

/** What the event beginning at `start` is. */
export function eventKindAt(buf: Buffer, start: number, dialect: Dialect): LastEventKind {
  if (startsWithOne(buf, start, TERMINAL_STARTS[dialect])) return 'terminal';
  return startsWithOne(buf, start, ERROR_STARTS[dialect]) ? 'error' : undefined;
}

/**
 * The bytes from `start` to the end of `buf` begin with one of `prefixes`, or, fewer than it,
 * are its beginning (an event whose first line is not all there yet may still be one).
 */
export function mayStartWithOne(buf: Buffer, start: number, prefixes: readonly Buffer[]): boolean {
  const have = buf.length - start;
  for (const prefix of prefixes) {
    const n = Math.min(prefix.length, have);
    let i = 0;
    while (i < n && buf[start + i] === prefix[i]) i++;
    if (i === n) return true;
  }
  return false;
}

/**
 * The bytes from `start` begin with one of `prefixes`. A byte loop that stops at the first
 * difference (a few bytes in, for another event): Buffer#compare with ranges costs ~0.3 µs a call.
 */
function startsWithOne(buf: Buffer, start: number, prefixes: readonly Buffer[]): boolean {
  for (const prefix of prefixes) {
    const n = prefix.length;
    if (buf.length - start < n) continue;
    let i = 0;
    while (i < n && buf[start + i] === prefix[i]) i++;
    if (i === n) return true;
  }
  return false;
}
