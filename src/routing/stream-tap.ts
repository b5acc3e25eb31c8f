/**
 * A light reader beside a passthrough stream: the bytes go to the client untouched, and this
 * picks out only what the log needs — usage, an upstream error event, whether the stream ended
 * with its terminal event — plus signatures: Gemini's thought signatures for the reasoning cache,
 * a custom Messages endpoint's thinking signatures for proof-issuers.ts.
 *
 * It never splits the stream into events. What it needs sits at the two ends of a stream: the
 * first event (Messages `message_start` carries input usage; an error there still allows a
 * fallback — with `holdEnvelope`, also an error right after the envelope events that open every
 * stream) and the last few events (final usage, error events, the terminal event). So per
 * chunk it only keeps references to the latest chunks; the head is parsed once, and the tail
 * once, when the stream ends. Only streams that may carry thought signatures are scanned
 * chunk by chunk (a byte loop looking for `"thought_signature"` or `"signature_delta"`, parsing
 * only the lines that hold it).
 */
import type { Dialect } from '../protocols/hub.js';
import type { LogUsage } from '../log/entry.js';
import { describeStreamError, type ParsedError } from './upstream-errors.js';
import { mergeUsage, readEventUsage, readUsageObject } from './usage.js';
import { TERMINAL_TYPES } from './last-event.js';
import { ABORTED, ABORTED_MESSAGE } from '../protocols/chat/finish-reason.js';

const LF = 0x0a;
const QUOTE = 0x22;
const SEQUENCE_KEY = Buffer.from('"sequence_number":');
/** Bytes kept from the end of the stream: the last events live there. */
const TAIL = 16 * 1024;
/** Data lines read from the end (usage chunk, message_delta, completed, error, [DONE] …). */
const LAST_EVENTS = 4;
/** A last event longer than this (a whole Responses output) is not parsed: only its usage is read. */
const MAX_TAIL_EVENT = 64 * 1024;
/** Longest first event / signature line we assemble; longer ones are forwarded but not read. */
const MAX_LINE = 4 * 1024 * 1024;

export type SignatureSink = (callId: string, signature: string) => void;

/**
 * What a stream is scanned for, chunk by chunk: lines holding one of `needles` (JSON keys, quotes
 * included), each event read by `read`; `end` once the stream is over.
 */
export interface SignatureScan {
  needles: readonly Buffer[];
  read(event: Record<string, unknown>): void;
  end?(): void;
}

/** Gemini thought signatures on Chat tool calls: `tool_calls[i].extra_content.google.thought_signature`. */
export function thoughtSignatureScan(sink: SignatureSink): SignatureScan {
  return { needles: [Buffer.from('"thought_signature"')], read: (event) => readThoughtSignatures(event, sink) };
}

/** Thinking signatures of a Messages stream: `signature_delta` events. */
export function thinkingSignatureScan(sink: (signature: string) => void): SignatureScan {
  return {
    needles: [Buffer.from('"signature_delta"')],
    read: (event) => {
      const delta = event.delta as Record<string, unknown> | undefined;
      if (event.type === 'content_block_delta' && delta?.type === 'signature_delta' && typeof delta.signature === 'string') sink(delta.signature);
    },
  };
}

export class StreamTap {
  usage: LogUsage | undefined;
  /** The upstream error event the stream ended with (or opened with). */
  error: ParsedError | undefined;
  /**
   * The stream's first event was an error (known once that event is complete); with
   * `holdEnvelope`, its first event past the envelope (see isEnvelope).
   */
  opening: ParsedError | undefined;
  /**
   * Responses: the response the stream announced (its first event, response.created), read with
   * the head at no extra cost; a final error event ends it with response.failed (stream-errors.ts).
   */
  announced: Record<string, unknown> | undefined;
  /**
   * Chat: a choice among the events read (the opening, the last few) finished with "abort" (vLLM's
   * and SGLang's engine dropped the request): a failure, `error` says so (chat/finish-reason.ts).
   */
  aborted = false;

  private readonly dialect: Dialect;
  private readonly scan: SignatureScan | undefined;
  /** The latest chunks, by reference, covering at least TAIL bytes. */
  private readonly recent: Buffer[] = [];
  private recentBytes = 0;
  /** Older chunks were let go: the window no longer starts at the stream's start. */
  private dropped = false;
  /** The first event is still being assembled (chunks by reference). */
  private head: Buffer[] | undefined = [];
  private headBytes = 0;
  /** Where in the joined head the next data line is looked for (past envelope events read). */
  private headFrom = 0;
  /** Read past the envelope events for the opening (a group has targets left to fall back to). */
  private readonly holdEnvelope: boolean;
  /** Signature scanning: the unfinished line (by reference) and whether it holds a hit. */
  private lineParts: Buffer[] = [];
  private lineBytes = 0;
  private lineWanted = false;
  private scanEnded = false;
  /** A Chat chunk among the last events had a finish_reason. */
  private chatFinished = false;
  /**
   * A Chat stream may open with llama-server's `error:` line instead of a `data:` one, or with an
   * `event: error` + `data:` pair (vLLM/SGLang variants, gateways): the head reads either as the
   * opening error (replacing one at the end of a stream is chat-error-tail.ts's).
   */
  private readonly errorField: boolean;

  constructor(dialect: Dialect, scan?: SignatureScan, holdEnvelope = false) {
    this.dialect = dialect;
    this.scan = scan;
    this.holdEnvelope = holdEnvelope;
    this.errorField = dialect === 'chat';
  }

  /**
   * The opening event is not complete yet: bytes so far may be comments (OpenRouter's
   * `: OPENROUTER PROCESSING`), an event cut across reads, or (holdEnvelope) envelope events only.
   */
  get headPending(): boolean {
    return this.head !== undefined;
  }

  push(chunk: Buffer): void {
    this.recent.push(chunk);
    this.recentBytes += chunk.length;
    while (this.recent.length > 1 && this.recentBytes - this.recent[0]!.length >= TAIL) {
      this.recentBytes -= this.recent.shift()!.length;
      this.dropped = true;
    }
    if (this.head) this.readHead(chunk);
    if (this.scan) this.scanSignatures(chunk, this.scan.needles);
  }

  /**
   * The upstream body ended: read the last events (usage, error) and say whether the stream
   * ended with its dialect's terminal event.
   */
  finish(): boolean {
    if (this.lineWanted && this.lineParts.length > 0) this.inspectSignatureLine(Buffer.concat(this.lineParts));
    this.lineParts = [];
    this.lineWanted = false;
    const scan = this.scan;
    if (scan?.end && !this.scanEnded) {
      this.scanEnded = true;
      scan.end();
    }
    if (this.recent.length === 0) return false;
    const joined = this.recent.length === 1 ? this.recent[0]! : Buffer.concat(this.recent, this.recentBytes);
    return this.readTail(joined);
  }

  /**
   * The `sequence_number` of the last Responses event seen (for a final error event), or -1: the
   * last whole one in the latest bytes kept (the latest chunk may hold none, such as the rest of
   * an event cut across reads, and a key or number may be cut across chunks). Asked once, when a
   * stream fails, so the chunks kept are joined for it.
   */
  lastSequenceNumber(): number {
    if (this.recent.length === 0) return -1;
    return sequenceNumberIn(this.recent.length === 1 ? this.recent[0]! : Buffer.concat(this.recent, this.recentBytes));
  }

  /** The stream so far ends at an event boundary (a blank line), so a new event can follow. */
  endsAtEventBoundary(): boolean {
    const n = this.recent.length;
    if (n === 0) return true;
    const last = this.recent[n - 1]!;
    const len = last.length;
    if (len === 0) return true;
    if (last[len - 1] !== LF) return false;
    if (len >= 2) return last[len - 2] === LF || (len >= 3 && last[len - 2] === 0x0d && last[len - 3] === LF);
    const before = n > 1 ? this.recent[n - 2]! : undefined;
    return before !== undefined && before[before.length - 1] === LF;
  }

  // -------------------------------------------------------------------------------------------
  // head: the first event

  private readHead(chunk: Buffer): void {
    const parts = this.head!;
    parts.push(chunk);
    this.headBytes += chunk.length;
    // no line ends in this chunk: no new complete line either, so skip the concat and rescan
    if (parts.length > 1 && chunk.indexOf(LF) === -1 && this.headBytes < MAX_LINE) return;
    const all = parts.length === 1 ? chunk : Buffer.concat(parts, this.headBytes);
    for (;;) {
      const line = nextDataLine(all, this.headFrom, this.errorField);
      if (line === undefined) {
        if (this.headBytes >= MAX_LINE) this.head = undefined;
        return;
      }
      const at = line.byteOffset - all.byteOffset;
      this.headFrom = at + line.length + 1;
      const envelope = this.readEvent(line, true, this.errorField && afterEventError(all, at));
      if (envelope !== true || this.opening) {
        this.head = undefined;
        return;
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // tail: the last events

  /** Read the last events; true when the very last one is the dialect's terminal event. */
  private readTail(joined: Buffer): boolean {
    const lines: Buffer[] = [];
    let truncated: Buffer | undefined;
    let end = joined.length;
    while (end > 0 && lines.length < LAST_EVENTS) {
      const lf = joined.lastIndexOf(LF, end - 1);
      if (lf === -1 && this.dropped) {
        // the line began in a chunk no longer kept
        if (lines.length === 0) truncated = joined.subarray(0, end);
        break;
      }
      const line = joined.subarray(lf + 1, end);
      if (isDataLine(line)) {
        if (line.length > MAX_TAIL_EVENT) {
          if (lines.length === 0) truncated = line;
          break;
        }
        lines.push(line);
      }
      if (lf === -1) break;
      end = lf;
    }
    // stream order: oldest first (later usage wins)
    let lastType: string | true | undefined;
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]!;
      lastType = this.readEvent(line, false, this.errorField && afterEventError(joined, line.byteOffset - joined.byteOffset));
    }
    if (truncated) {
      // a huge last event: only Responses ends with one (response.completed/incomplete/failed
      // carry the whole response); it is terminal when it holds the final usage object
      return this.readTruncatedUsage(truncated) && this.dialect === 'responses';
    }
    // a Chat stream is complete at its finish_reason; [DONE] is only the terminator some servers leave out
    return (typeof lastType === 'string' && TERMINAL_TYPES[this.dialect].includes(lastType)) || this.chatFinished;
  }

  /** A huge last event (e.g. `response.completed` with the whole output): read its usage object only. */
  private readTruncatedUsage(part: Buffer): boolean {
    const at = part.lastIndexOf('"usage":{');
    if (at === -1) return false;
    const open = at + '"usage":'.length;
    const close = objectEnd(part, open);
    if (close === -1) return false;
    try {
      const u = JSON.parse(part.toString('utf8', open, close)) as unknown;
      if (typeof u !== 'object' || u === null) return false;
      const usage = readUsageObject(u as Record<string, unknown>, this.dialect);
      this.usage = mergeUsage(this.usage, usage);
      return usage !== undefined;
    } catch {
      return false; // not a usage object after all
    }
  }

  /**
   * Read one `data:` event; returns its type (`[DONE]` for Chat's terminator) — or, for the
   * opening with holdEnvelope, true when it is an envelope event (the opening is still to come).
   * `named`: a Chat data line right after an `event: error` line.
   */
  private readEvent(line: Buffer, opening: boolean, named: boolean): string | true | undefined {
    let start = line.indexOf(0x3a) + 1; // after "data:" (or "error:")
    if (line[start] === 0x20) start++;
    let end = line.length;
    if (end > start && line[end - 1] === 0x0d) end--;
    if (end - start === 6 && line.toString('latin1', start, end) === '[DONE]') return '[DONE]';
    let event: unknown;
    try {
      event = JSON.parse(line.toString('utf8', start, end));
    } catch {
      return undefined;
    }
    // an `error:` line's value is the error object itself
    if (this.errorField && !isDataLine(line)) event = { error: event };
    if (typeof event !== 'object' || event === null) return undefined;
    let obj = event as Record<string, unknown>;
    // a named error event's data may be the error object itself
    if (named && (obj.error === undefined || obj.error === null)) obj = { error: obj };
    this.usage = mergeUsage(this.usage, readEventUsage(obj, this.dialect));
    if (opening && this.dialect === 'responses' && this.announced === undefined && isEnvelope(obj, 'responses') && isObject(obj.response)) this.announced = obj.response;
    let error = describeStreamError(obj, this.dialect);
    if (!error && this.dialect === 'chat' && finishedWith(obj, ABORTED)) {
      this.aborted = true;
      error = { message: ABORTED_MESSAGE, kind: '' };
    }
    if (error) {
      if (opening) this.opening = error;
      this.error ??= error;
    }
    if (this.dialect === 'chat' && !opening && chatFinished(obj)) this.chatFinished = true;
    if (opening && this.holdEnvelope && !error && isEnvelope(obj, this.dialect)) return true;
    // signatures are not read here: scanSignatures already saw every line, head and tail included
    return typeof obj.type === 'string' ? obj.type : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // signatures, mid-stream

  private scanSignatures(chunk: Buffer, needles: readonly Buffer[]): void {
    let pos = 0;
    if (this.lineParts.length > 0) {
      const firstLf = chunk.indexOf(LF);
      const segEnd = firstLf === -1 ? chunk.length : firstLf;
      const wanted = this.lineWanted || nextSignature(chunk, 0, segEnd, needles) !== -1;
      if (firstLf === -1) {
        this.lineWanted = wanted;
        this.keepLinePart(chunk);
        return;
      }
      if (wanted) {
        this.lineParts.push(chunk.subarray(0, firstLf));
        this.inspectSignatureLine(Buffer.concat(this.lineParts));
      }
      this.resetLine();
      pos = firstLf + 1;
    }
    const tailStart = chunk.lastIndexOf(LF) + 1;
    let tailWanted = false;
    let hit = nextSignature(chunk, pos, chunk.length, needles);
    while (hit !== -1) {
      if (hit >= tailStart) {
        tailWanted = true;
        break;
      }
      const lineStart = Math.max(pos, chunk.lastIndexOf(LF, hit) + 1);
      const lineEnd = chunk.indexOf(LF, hit);
      this.inspectSignatureLine(chunk.subarray(lineStart, lineEnd));
      hit = nextSignature(chunk, lineEnd + 1, chunk.length, needles);
    }
    if (tailStart < chunk.length) {
      this.lineWanted = tailWanted;
      this.keepLinePart(chunk.subarray(Math.max(tailStart, pos)));
    }
  }

  private inspectSignatureLine(line: Buffer): void {
    if (!isDataLine(line)) return;
    let start = line.indexOf(0x3a) + 1;
    if (line[start] === 0x20) start++;
    try {
      const event = JSON.parse(line.toString('utf8', start)) as unknown;
      if (typeof event === 'object' && event !== null) this.scan!.read(event as Record<string, unknown>);
    } catch {
      // not JSON: nothing to read
    }
  }

  private keepLinePart(part: Buffer): void {
    if (part.length === 0) return;
    this.lineBytes += part.length;
    if (this.lineBytes > MAX_LINE) {
      this.resetLine();
      return;
    }
    this.lineParts.push(part);
  }

  private resetLine(): void {
    if (this.lineParts.length > 0) this.lineParts = [];
    this.lineBytes = 0;
    this.lineWanted = false;
  }
}

/**
 * The last `"sequence_number":N` in the bytes, or -1. A number running to their end may have been
 * cut off (the stream stopped inside it): the one before counts then.
 */
function sequenceNumberIn(bytes: Buffer): number {
  let at = bytes.lastIndexOf(SEQUENCE_KEY);
  while (at !== -1) {
    let i = at + SEQUENCE_KEY.length;
    while (bytes[i] === 0x20) i++;
    let n = 0;
    let digits = 0;
    while (i < bytes.length && isDigit(bytes[i]!)) {
      n = n * 10 + (bytes[i]! - 0x30);
      i++;
      digits++;
    }
    if (digits > 0 && i < bytes.length) return n;
    at = at === 0 ? -1 : bytes.lastIndexOf(SEQUENCE_KEY, at - 1);
  }
  return -1;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

/** A Chat chunk with a choice that finished for `reason`. */
function finishedWith(event: Record<string, unknown>, reason: string): boolean {
  const choices = event.choices;
  return Array.isArray(choices) && choices.some((c) => isObject(c) && c.finish_reason === reason);
}

/** A Chat chunk that says a choice finished. */
function chatFinished(event: Record<string, unknown>): boolean {
  const choices = event.choices;
  if (!Array.isArray(choices)) return false;
  return choices.some((c) => typeof c === 'object' && c !== null && typeof (c as Record<string, unknown>).finish_reason === 'string' && (c as Record<string, unknown>).finish_reason !== '');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `data:` line (leading spaces and a CR tolerated). */
function isDataLine(line: Buffer): boolean {
  let i = 0;
  while (i < line.length && (line[i] === 0x20 || line[i] === 0x0d)) i++;
  return line[i] === 0x64 && line[i + 1] === 0x61 && line[i + 2] === 0x74 && line[i + 3] === 0x61 && line[i + 4] === 0x3a;
}

/**
 * Events that open every stream of a dialect before any content: what holdEnvelope reads past.
 * Messages `message_start` and `ping`; Responses `response.created`/`in_progress`/`queued`; a
 * Chat chunk whose deltas say nothing yet (OpenRouter's and most servers' `role` chunk, Azure's
 * chunk of no choices before it). Also the
 * start of a text or thinking block, or of a message or reasoning item and its text part, that holds nothing
 * yet: Anthropic opens its first block before its `ping`, and an overload may follow both.
 */
function isEnvelope(event: Record<string, unknown>, dialect: Dialect): boolean {
  const type = event.type;
  if (dialect === 'messages') return type === 'message_start' || type === 'ping' || (type === 'content_block_start' && isEmptyBlock(event.content_block));
  if (dialect === 'responses') {
    // `keepalive`: what OpenAI sends while a reasoning model thinks
    if (type === 'response.created' || type === 'response.in_progress' || type === 'response.queued' || type === 'keepalive') return true;
    if (type === 'response.output_item.added') return isEmptyMessageItem(event.item);
    return type === 'response.content_part.added' && isEmptyTextPart(event.part);
  }
  const choices = event.choices;
  if (!Array.isArray(choices)) return false;
  // Azure opens with a chunk of no choices that carries its prompt filter results
  if (choices.length === 0) return event.usage === undefined || event.usage === null;
  for (const choice of choices) {
    const c = choice as Record<string, unknown> | null;
    if (typeof c !== 'object' || c === null || (c.finish_reason !== undefined && c.finish_reason !== null)) return false;
    const delta = c.delta;
    if (typeof delta !== 'object' || delta === null) return false;
    for (const [key, value] of Object.entries(delta)) {
      if (key !== 'role' && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)) return false;
    }
  }
  return true;
}

/** A Messages text or thinking block's start with no text in it (a signature comes only at its end). */
function isEmptyBlock(block: unknown): boolean {
  if (typeof block !== 'object' || block === null) return false;
  const b = block as Record<string, unknown>;
  if (b.type === 'text') return b.text === '' && (b.citations === undefined || b.citations === null);
  return b.type === 'thinking' && b.thinking === '' && (b.signature === undefined || b.signature === '');
}

/** A Responses message item opened with no content yet, or a reasoning item with no summary or encrypted content yet. */
function isEmptyMessageItem(item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false;
  const i = item as Record<string, unknown>;
  if (i.type === 'message') return Array.isArray(i.content) && i.content.length === 0;
  return i.type === 'reasoning' && isEmptyList(i.summary) && (i.content === undefined || isEmptyList(i.content)) && (i.encrypted_content === undefined || i.encrypted_content === null);
}

function isEmptyList(v: unknown): boolean {
  return Array.isArray(v) && v.length === 0;
}

/** A Responses output_text part opened with no text yet. */
function isEmptyTextPart(part: unknown): boolean {
  if (typeof part !== 'object' || part === null) return false;
  const p = part as Record<string, unknown>;
  return p.type === 'output_text' && p.text === '';
}

/** `error:` line (llama-server's stream error), at the line's start. */
function isErrorLine(line: Buffer): boolean {
  return line[0] === 0x65 && line[1] === 0x72 && line[2] === 0x72 && line[3] === 0x6f && line[4] === 0x72 && line[5] === 0x3a;
}

/**
 * The line before the one starting at `at` is `event: error` (or `event:error`, a CR tolerated):
 * a Chat stream's named error event. Looked at only for the lines the head and tail read.
 */
function afterEventError(buf: Buffer, at: number): boolean {
  if (at < 1 || buf[at - 1] !== LF) return false;
  let end = at - 1;
  if (end > 0 && buf[end - 1] === 0x0d) end--;
  const start = buf.lastIndexOf(LF, end - 1) + 1;
  const line = buf.toString('latin1', start, end);
  return line === 'event: error' || line === 'event:error';
}

/**
 * The first complete `data:` line (or, with `errorField`, `error:` line) of the buffer at or after
 * `start`, or undefined while it is incomplete.
 */
function nextDataLine(buf: Buffer, start: number, errorField: boolean): Buffer | undefined {
  while (start < buf.length) {
    const lf = buf.indexOf(LF, start);
    if (lf === -1) return undefined;
    const line = buf.subarray(start, lf);
    if (isDataLine(line) || (errorField && isErrorLine(line))) return line;
    start = lf + 1;
  }
  return undefined;
}

/** Offset just past the JSON object opening at `open`, or -1 (string-aware brace matching). */
function objectEnd(buf: Buffer, open: number): number {
  if (buf[open] !== 0x7b) return -1;
  let depth = 0;
  let inString = false;
  for (let i = open; i < buf.length; i++) {
    const b = buf[i];
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === 0x7b) depth++;
    else if (b === 0x7d && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * Offset of the next of `needles` (quoted JSON keys or values) in [from, to) — or of a partial one cut
 * by the end of the chunk — else -1. A byte loop: Buffer#indexOf with a multi-byte needle costs
 * ~1 µs a call.
 */
function nextSignature(buf: Buffer, from: number, to: number, needles: readonly Buffer[]): number {
  for (let i = from; i < to; i++) {
    if (buf[i] !== QUOTE) continue;
    if (i + 1 === to) return i;
    for (const needle of needles) {
      if (buf[i + 1] !== needle[1]) continue;
      const len = needle.length;
      let k = 2;
      while (k < len && i + k < to && buf[i + k] === needle[k]) k++;
      if (k === len || i + k >= to) return i;
    }
  }
  return -1;
}

function readThoughtSignatures(event: Record<string, unknown>, sink: SignatureSink): void {
  const choices = event.choices;
  if (!Array.isArray(choices)) return;
  for (const choice of choices) {
    const c = choice as Record<string, unknown> | null;
    const holder = (c?.delta ?? c?.message) as Record<string, unknown> | undefined;
    const calls = holder?.tool_calls;
    if (!Array.isArray(calls)) continue;
    for (const call of calls) {
      const tc = call as Record<string, unknown> | null;
      const sig = ((tc?.extra_content as Record<string, unknown> | undefined)?.google as Record<string, unknown> | undefined)
        ?.thought_signature;
      if (typeof tc?.id === 'string' && typeof sig === 'string') sink(tc.id, sig);
    }
  }
}
