/**
 * A light reader beside a passthrough stream: the bytes go to the client untouched, and this
 * picks out only the few events the log needs — usage, an upstream error event — plus Gemini
 * thought signatures for the reasoning cache.
 *
 * It never splits the stream into events. Per chunk one byte loop looks for the needles
 * (`"usage"`, `"error"`, …); only a line holding a real hit (`"usage":{`, not `"usage":null`)
 * is assembled and JSON-parsed. Lines may span chunks: the unfinished line is
 * kept as references to the chunk tails, never copied until it is wanted.
 */
import type { Dialect } from '../protocols/hub.js';
import type { LogUsage } from '../log/entry.js';
import { describeStreamError, type ParsedError } from './upstream-errors.js';
import { mergeUsage, readEventUsage } from './usage.js';

const LF = 0x0a;
const NEEDLE_USAGE = Buffer.from('"usage"');
const NEEDLE_ERROR = Buffer.from('"error"');
const NEEDLE_SIGNATURE = Buffer.from('"thought_signature"');
const QUOTE = 0x22;
/** Longest line we assemble for inspection; longer ones are forwarded but not read. */
const MAX_LINE = 16 * 1024 * 1024;
/** How far from the end the terminal event is looked for. */
const TAIL = 512;

const TERMINATORS: Readonly<Record<Dialect, readonly string[]>> = {
  chat: ['[DONE]'],
  messages: ['message_stop'],
  responses: ['response.completed', 'response.incomplete', 'response.failed'],
};

export type SignatureSink = (callId: string, signature: string) => void;

export class StreamTap {
  usage: LogUsage | undefined;
  /** The first upstream error event seen. */
  error: ParsedError | undefined;

  private readonly dialect: Dialect;
  private readonly onSignature: SignatureSink | undefined;
  private readonly needles: Buffer[];
  /** The unfinished line: tails of earlier chunks, by reference. */
  private lineParts: Buffer[] = [];
  private lineBytes = 0;
  private lineWanted = false;
  private last: Buffer | undefined;
  private beforeLast: Buffer | undefined;
  /** The latest chunks (by reference) covering at least TAIL bytes, to find the terminal event. */
  private readonly recent: Buffer[] = [];
  private recentBytes = 0;

  constructor(dialect: Dialect, onSignature?: SignatureSink) {
    this.dialect = dialect;
    this.onSignature = onSignature;
    this.needles = onSignature ? [NEEDLE_USAGE, NEEDLE_ERROR, NEEDLE_SIGNATURE] : [NEEDLE_USAGE, NEEDLE_ERROR];
  }

  push(chunk: Buffer): void {
    this.beforeLast = this.last;
    this.last = chunk;
    this.recent.push(chunk);
    this.recentBytes += chunk.length;
    while (this.recent.length > 1 && this.recentBytes - this.recent[0]!.length >= TAIL) this.recentBytes -= this.recent.shift()!.length;
    let pos = 0;

    // The line left unfinished by earlier chunks.
    if (this.lineParts.length > 0) {
      const firstLf = chunk.indexOf(LF);
      const segEnd = firstLf === -1 ? chunk.length : firstLf;
      const wanted = this.lineWanted || this.hasCandidate(chunk, 0, segEnd);
      if (firstLf === -1) {
        this.lineWanted = wanted;
        this.keepLinePart(chunk);
        return;
      }
      if (wanted) {
        this.lineParts.push(chunk.subarray(0, firstLf));
        this.inspect(Buffer.concat(this.lineParts));
      }
      this.resetLine();
      pos = firstLf + 1;
    }

    // Complete lines of this chunk holding a hit; the unfinished tail is kept for later.
    const tailStart = chunk.lastIndexOf(LF) + 1;
    let tailWanted = false;
    let hit = this.nextCandidate(chunk, pos, chunk.length);
    while (hit !== -1) {
      if (hit >= tailStart) {
        tailWanted = true;
        break;
      }
      const lineStart = Math.max(pos, chunk.lastIndexOf(LF, hit) + 1);
      const lineEnd = chunk.indexOf(LF, hit);
      this.inspect(chunk.subarray(lineStart, lineEnd));
      hit = this.nextCandidate(chunk, lineEnd + 1, chunk.length);
    }
    if (tailStart < chunk.length) {
      this.lineWanted = tailWanted;
      this.keepLinePart(chunk.subarray(Math.max(tailStart, pos)));
    }
  }

  /**
   * The upstream body ended: inspect a wanted last line that had no final newline, and say
   * whether the stream ended with its dialect's terminal event.
   */
  finish(): boolean {
    if (this.lineWanted && this.lineParts.length > 0) this.inspect(Buffer.concat(this.lineParts));
    this.resetLine();
    if (this.recent.length === 0) return false;
    const joined = this.recent.length === 1 ? this.recent[0]! : Buffer.concat(this.recent);
    const window = joined.subarray(Math.max(0, joined.length - TAIL));
    return TERMINATORS[this.dialect].some((t) => window.includes(t));
  }

  /** The `sequence_number` of the last Responses event seen (for a final error event), or -1. */
  lastSequenceNumber(): number {
    const last = this.last;
    if (!last) return -1;
    const key = '"sequence_number":';
    const at = last.lastIndexOf(key);
    if (at === -1) return -1;
    let i = at + key.length;
    while (last[i] === 0x20) i++;
    let n = 0;
    let digits = 0;
    while (i < last.length && last[i]! >= 0x30 && last[i]! <= 0x39) {
      n = n * 10 + (last[i]! - 0x30);
      i++;
      digits++;
    }
    return digits > 0 ? n : -1;
  }

  /** The stream so far ends at an event boundary (a blank line), so a new event can follow. */
  endsAtEventBoundary(): boolean {
    const last = this.last;
    if (!last || last.length === 0) return true;
    const n = last.length;
    if (last[n - 1] !== LF) return false;
    if (n >= 2 && last[n - 2] === LF) return true;
    if (n >= 3 && last[n - 2] === 0x0d && last[n - 3] === LF) return true;
    return n === 1 && this.beforeLast !== undefined && this.beforeLast[this.beforeLast.length - 1] === LF;
  }

  private hasCandidate(chunk: Buffer, from: number, to: number): boolean {
    return this.nextCandidate(chunk, from, to) !== -1;
  }

  /**
   * Offset of the next needle hit in [from, to) that may hold what we read, or -1. A plain byte
   * loop: Buffer#indexOf with a multi-byte needle costs ~1 µs per call (it builds a search table),
   * far more than scanning a typical 100–300 byte chunk here.
   */
  private nextCandidate(buf: Buffer, from: number, to: number): number {
    const needles = this.needles;
    // second bytes of the needles: `u`sage, `e`rror, `t`hought_signature (-1 when not looked for)
    const a = 0x75;
    const b = 0x65;
    const c = needles.length > 2 ? 0x74 : -1;
    for (let i = from; i < to; i++) {
      if (buf[i] !== QUOTE) continue;
      // a quote at the very end may open a needle that continues in the next chunk
      if (i + 1 === to) return i;
      const second = buf[i + 1];
      if (second !== a && second !== b && second !== c) continue;
      const needle = second === a ? NEEDLE_USAGE : second === b ? NEEDLE_ERROR : NEEDLE_SIGNATURE;
      const len = needle.length;
      let k = 2;
      while (k < len && i + k < to && buf[i + k] === needle[k]) k++;
      // a needle running past the end of the chunk may continue in the next: look at the line
      if (k === len ? this.isCandidate(buf, i + len, to, needle) : i + k >= to) return i;
    }
    return -1;
  }

  /** `"usage"` followed by `:` and `{` (so `"usage":null` on every OpenAI chunk is skipped). */
  private isCandidate(buf: Buffer, after: number, to: number, needle: Buffer): boolean {
    if (needle === NEEDLE_SIGNATURE) return true;
    let i = after;
    while (i < to && buf[i] === 0x20) i++;
    if (i >= to) return true; // cannot tell yet: look at the whole line
    if (buf[i] !== 0x3a) return false;
    i++;
    while (i < to && buf[i] === 0x20) i++;
    return i >= to || buf[i] === 0x7b;
  }

  private keepLinePart(part: Buffer): void {
    if (part.length === 0) return;
    this.lineBytes += part.length;
    if (this.lineBytes > MAX_LINE) {
      // too long to inspect: forget it (the bytes still reach the client)
      this.lineParts = [];
      this.lineBytes = 0;
      this.lineWanted = false;
      return;
    }
    this.lineParts.push(part);
  }

  private resetLine(): void {
    if (this.lineParts.length > 0) this.lineParts = [];
    this.lineBytes = 0;
    this.lineWanted = false;
  }

  private inspect(line: Buffer): void {
    // `data: {…}` — other fields never hold the needles we look for
    let start = 0;
    while (start < line.length && (line[start] === 0x20 || line[start] === 0x0d)) start++;
    if (line.toString('latin1', start, start + 5) !== 'data:') return;
    start += 5;
    let end = line.length;
    if (end > start && line[end - 1] === 0x0d) end--;
    let event: unknown;
    try {
      event = JSON.parse(line.toString('utf8', start, end));
    } catch {
      return;
    }
    if (typeof event !== 'object' || event === null) return;
    const obj = event as Record<string, unknown>;
    this.usage = mergeUsage(this.usage, readEventUsage(obj, this.dialect));
    if (!this.error) this.error = describeStreamError(obj, this.dialect);
    if (this.onSignature) readSignatures(obj, this.onSignature);
  }
}

/** Parse the first complete `data:` event of a stream's first chunk (to fall back on an error that opens the stream). */
export function firstEventError(chunk: Buffer, dialect: Dialect): ParsedError | undefined {
  const at = chunk.indexOf('data:');
  if (at === -1 || (at > 0 && chunk[at - 1] !== LF)) return undefined;
  const end = chunk.indexOf(LF, at);
  if (end === -1) return undefined;
  try {
    return describeStreamError(JSON.parse(chunk.toString('utf8', at + 5, end)), dialect);
  } catch {
    return undefined;
  }
}

/** Gemini thought signatures on Chat tool-call deltas: `tool_calls[i].extra_content.google.thought_signature`. */
function readSignatures(event: Record<string, unknown>, sink: SignatureSink): void {
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

export { readSignatures as readChatThoughtSignatures };
