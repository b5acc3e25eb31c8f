/**
 * A passthrough Chat stream that ends with the upstream's own error event (OpenRouter's
 * `{…,"error":{"code":502,…},"choices":[{…,"finish_reason":"error"}]}`, Gemini's
 * `{"error":{"code":500,"status":"INTERNAL",…}}`, a local server's `{"error":{…,"code":null}}`)
 * has that event replaced by svc-proxy's final error event, whose `code` is stable
 * (stream-relay.ts). This finds it: in the bytes one tick is about to write, is the last event
 * (or the last before a closing `data: [DONE]`) a whole error event?
 *
 * It runs once per tick with writes, so it must cost a few byte comparisons in the usual case.
 * Nearly every Chat event is a choice delta, whose JSON ends `]}` (the `choices` array last): such
 * an event is only an error when it ends `"error"}]}` (a choice with `finish_reason` (or
 * OpenRouter's `native_finish_reason`) "error" last, as OpenRouter sends it), which is a
 * comparison at the end. Any other last event (a usage chunk, `[DONE]`, an error) is looked at
 * from its start: its data must begin `{"error"`, unless it ended `"error"}]}`. A candidate is
 * then parsed to be sure.
 *
 * llama-server (2025 builds) writes its error as an `error:` line instead of a `data:` one (an
 * SSE field clients ignore, so the answer would look cut short, not failed): an event that begins
 * `error:` is read the same way, its value being the error object itself.
 *
 * Some OpenAI-compatible servers and gateways (vLLM/SGLang variants) name it instead: an
 * `event: error` line, then a `data:` line holding `{"error":…}` or the error object itself. An
 * event that begins `event: error` is read so, the pair replaced whole; other events never begin
 * with `ev`, so this costs nothing on the usual path.
 *
 * When these comparisons cannot tell (the piece ends inside an event, CRLF line ends, `id:` or
 * `retry:` lines, a `[DONE]` alone, an event begun in an earlier piece), lastEventVerdict says
 * 'unsure' and ChatErrorWatch (chat-error-watch.ts) reads the events whole.
 *
 * What it does not see goes out as the upstream sent it (and is still logged with the mapped
 * code, from the tap): an error event followed by more events than a `[DONE]`, and one whose
 * `error` key comes after other keys and whose choices do not end with "error".
 */
import { describeStreamError, type ParsedError } from './upstream-errors.js';

const LF = 0x0a;
const CR = 0x0d;
const BLANK_LINE = Buffer.from('\n\n');
/** How an OpenRouter error chunk ends: the choice's finish reason "error", then `}]}`. */
const ERROR_CHOICE_END = Buffer.from('"error"}]}');
const ERROR_START = Buffer.from('{"error"');
const ERROR_FIELD = Buffer.from('error:');
/** A named error event's first line, with or without the space after the colon. */
const EVENT_ERROR = Buffer.from('event: error\n');
const EVENT_ERROR_TIGHT = Buffer.from('event:error\n');
const DONE = Buffer.from('[DONE]');
const DATA = Buffer.from('data:');

export interface TrailingChatError {
  /** Offset in the piece where the error event begins (what precedes it goes out as it is). */
  at: number;
  error: ParsedError;
}

/**
 * The error event `piece` ends with, when it ends with one, whole (a `data: [DONE]` after it
 * allowed); else undefined. `previous` is what was written right before the piece (undefined
 * at the stream's start): an event that begins at the piece's start is judged only when
 * `previous` ended at an event boundary.
 */
export function trailingChatError(piece: Buffer, previous: Buffer | string | undefined): TrailingChatError | undefined {
  const verdict = lastEventVerdict(piece, previous);
  return typeof verdict === 'object' ? verdict : undefined;
}

/**
 * trailingChatError's few comparisons, saying also when they cannot tell: 'unsure' when the
 * piece ends inside an event, with CRLF line ends, with a lone `[DONE]`, with an event that
 * began before it, or with one that carries other lines (`id:`, `retry:`) than the cheap reading
 * expects. Those are read again, whole, by ChatErrorWatch (chat-error-watch.ts).
 */
export function lastEventVerdict(piece: Buffer, previous: Buffer | string | undefined): TrailingChatError | 'none' | 'unsure' {
  const len = piece.length;
  if (len < 3 || piece[len - 1] !== LF) return 'unsure';
  if (piece[len - 2] !== LF) {
    // CRLF line ends: a choice delta is told apart as cheaply; anything else is read whole
    const crlfDelta = len >= 4 + ERROR_CHOICE_END.length && piece[len - 2] === CR && piece[len - 3] === LF && piece[len - 4] === CR && piece[len - 5] === 0x7d && piece[len - 6] === 0x5d;
    return crlfDelta && !endsWith(piece, len - 4, ERROR_CHOICE_END) ? 'none' : 'unsure';
  }
  const last = errorEventEndingAt(piece, len - 2, previous, true);
  if (last === undefined) return 'unsure';
  if (last !== 'done') return last;
  // `[DONE]` after the error: the event before it, when it is in this piece too
  const doneStart = piece.lastIndexOf(BLANK_LINE, len - 3) + 2;
  if (doneStart < 3) return 'unsure';
  const before = errorEventEndingAt(piece, doneStart - 2, previous, false);
  return before === undefined ? 'unsure' : before === 'done' ? 'none' : before;
}

/**
 * The event of `piece` whose text ends at `end` (its blank line follows): the error it is, or
 * 'done' for `data: [DONE]` (when `doneAllowed`), 'none' when it is neither, undefined when
 * it is not wholly in the piece or holds more than the cheap reading understands.
 */
function errorEventEndingAt(piece: Buffer, end: number, previous: Buffer | string | undefined, doneAllowed: boolean): TrailingChatError | 'done' | 'none' | undefined {
  // too few bytes to see how it ends: its start is in an earlier piece
  if (end < ERROR_CHOICE_END.length) return undefined;
  const choiceError = endsWith(piece, end, ERROR_CHOICE_END);
  // a choice delta (the usual event): nothing more to look at
  if (!choiceError && end >= 2 && piece[end - 1] === 0x7d && piece[end - 2] === 0x5d) return 'none';
  const before = end >= 2 ? piece.lastIndexOf(BLANK_LINE, end - 1) : -1;
  let start = before + 2;
  if (before === -1) {
    // the event begins the piece, or its blank line before it straddles the pieces
    start = piece[0] === LF && endsWithLf(previous) ? 1 : 0;
    if (start === 0 && !endsAtBoundary(previous)) return undefined;
  }
  if (startsWith(piece, start, end, ERROR_FIELD)) {
    const valueAt = piece[start + ERROR_FIELD.length] === 0x20 ? start + ERROR_FIELD.length + 1 : start + ERROR_FIELD.length;
    const error = readErrorField(piece.toString('utf8', valueAt, end));
    return error ? { at: start, error } : undefined;
  }
  if (piece[start] === 0x65 && piece[start + 1] === 0x76) {
    const dataAt = startsWith(piece, start, end, EVENT_ERROR) ? start + EVENT_ERROR.length : startsWith(piece, start, end, EVENT_ERROR_TIGHT) ? start + EVENT_ERROR_TIGHT.length : -1;
    if (dataAt === -1) return 'none';
    if (!startsWith(piece, dataAt, end, DATA)) return undefined;
    const from = piece[dataAt + DATA.length] === 0x20 ? dataAt + DATA.length + 1 : dataAt + DATA.length;
    const error = readNamedError(piece.toString('utf8', from, end));
    return error ? { at: start, error } : undefined;
  }
  // `id:` or `retry:` before the data
  if (piece[start] === 0x69 || piece[start] === 0x72) return undefined;
  // `data:` with or without its space
  if (end - start < 6 || piece[start] !== 0x64 || piece[start + 1] !== 0x61 || piece[start + 2] !== 0x74 || piece[start + 3] !== 0x61 || piece[start + 4] !== 0x3a) return 'none';
  const from = piece[start + 5] === 0x20 ? start + 6 : start + 5;
  if (doneAllowed && end - from === DONE.length && startsWith(piece, from, end, DONE)) return 'done';
  // another line after the data's (`id:`, `retry:`): its JSON does not end the event
  if (!choiceError && piece[end - 1] !== 0x7d) return undefined;
  if (!choiceError && !startsWith(piece, from, end, ERROR_START)) return 'none';
  const error = readChatError(piece.toString('utf8', from, end));
  return error ? { at: start, error } : undefined;
}

/** The error a Chat event's JSON carries: an `error` member, or a choice that finished with "error". */
export function readChatError(json: string): ParsedError | undefined {
  let event: unknown;
  try {
    event = JSON.parse(json);
  } catch {
    return undefined; // several data lines, or not JSON: left as it is
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return undefined;
  const described = describeStreamError(event, 'chat');
  if (described) return described;
  const choices = (event as Record<string, unknown>).choices;
  if (!Array.isArray(choices)) return undefined;
  for (const c of choices) {
    if (typeof c === 'object' && c !== null && (c as Record<string, unknown>).finish_reason === 'error') {
      return { message: 'the upstream ended the answer with finish_reason "error"', kind: '' };
    }
  }
  return undefined;
}

/** The error an `error:` line's value carries (the error object, not wrapped in `{"error":…}`). */
function readErrorField(json: string): ParsedError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  return describeStreamError({ error: value }, 'chat');
}

/**
 * The error an `event: error` event's data carries: `{"error":…}` as Chat writes it, or the error
 * object itself (its name already says it is one).
 */
export function readNamedError(json: string): ParsedError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined; // several data lines, or not JSON: left as it is
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const wrapped = (value as Record<string, unknown>).error;
  return describeStreamError(wrapped === undefined || wrapped === null ? { error: value } : value, 'chat');
}

/** Byte loops: Buffer#compare is a native call costing more than these few bytes. */
function startsWith(buf: Buffer, from: number, end: number, prefix: Buffer): boolean {
  const n = prefix.length;
  if (end - from < n) return false;
  for (let i = 0; i < n; i++) if (buf[from + i] !== prefix[i]) return false;
  return true;
}

function endsWith(buf: Buffer, end: number, suffix: Buffer): boolean {
  const n = suffix.length;
  if (end < n) return false;
  for (let i = 1; i <= n; i++) if (buf[end - i] !== suffix[n - i]) return false;
  return true;
}

function endsWithLf(previous: Buffer | string | undefined): boolean {
  if (previous === undefined || previous.length === 0) return false;
  return typeof previous === 'string' ? previous.endsWith('\n') : previous[previous.length - 1] === LF;
}

/** What was written before ends with a blank line (or nothing was). */
function endsAtBoundary(previous: Buffer | string | undefined): boolean {
  if (previous === undefined) return true;
  if (typeof previous === 'string') return previous.endsWith('\n\n');
  const n = previous.length;
  return n >= 2 && previous[n - 1] === LF && previous[n - 2] === LF;
}
