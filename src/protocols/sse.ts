/**
 * Server-sent events: an incremental parser over raw bytes and a writer.
 *
 * Each push decodes its bytes up to their last line end once, as one string, and splits that
 * string into lines: a chunk holding many events costs one decode instead of one per line, and
 * a chunk boundary anywhere — inside a multi-byte UTF-8 character or between \r and \n — is
 * harmless, because a line end is one ASCII byte and never part of a multi-byte character. The
 * bytes after the last line end wait as a list of pieces, joined once their line ends (a long
 * line arriving in many chunks costs linear time, not quadratic); memory stays flat however long
 * the stream runs, and one event may not grow past `maxEventBytes`.
 */

/** An event (or an unfinished line) grew past the parser's bound; the stream cannot be trusted. */
export class SseEventTooLarge extends Error {
  constructor(limit: number) {
    super(`an event-stream event is larger than ${limit} bytes`);
    this.name = 'SseEventTooLarge';
  }
}

/** Default bound on one event: far above any real event, far below what would exhaust memory. */
export const MAX_SSE_EVENT_BYTES = 32 * 1024 * 1024;

export interface SseEvent {
  /** The `event:` field, when present. */
  event?: string;
  /** All `data:` lines of the event joined with \n. */
  data: string;
  id?: string;
}

export interface SseParserOptions {
  /**
   * An `error:` line is an event named `error` whose data is its value: llama-server (2025 builds)
   * writes a stream's failure so, a field the spec says to ignore. Read only on lines that start
   * with `e` and are not `event:`, so it costs nothing on data lines.
   */
  errorField?: boolean;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
/** How far back from a chunk's end a byte loop looks for its last line end before asking memrchr. */
const NEAR_END = 64;

export class SseParser {
  /** The unfinished line, as copied pieces of earlier chunks (joined once the line ends). */
  private tail: Buffer[] | null = null;
  private tailBytes = 0;
  /** Bytes of the event being assembled (its data lines so far). */
  private eventBytes = 0;
  /** The text being split decoded from ASCII alone: its lengths are byte counts. */
  private ascii = true;
  private skipLeadingLF = false;
  private eventName: string | undefined;
  private dataLines: string[] = [];
  private id: string | undefined;
  private sawField = false;
  private readonly onEvent: (ev: SseEvent) => void;
  private readonly maxEventBytes: number;
  private readonly errorField: boolean;

  constructor(onEvent: (ev: SseEvent) => void, maxEventBytes = MAX_SSE_EVENT_BYTES, options: SseParserOptions = {}) {
    this.onEvent = onEvent;
    this.maxEventBytes = maxEventBytes;
    this.errorField = options.errorField === true;
  }

  /**
   * Feed bytes as they arrive. Events are delivered synchronously through the callback. Throws
   * SseEventTooLarge when one event (or line) grows past the bound.
   */
  push(chunk: Uint8Array): void {
    const buf: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const last = lastLineEnd(buf);
    if (last === -1) {
      this.keep(buf, 0);
      return;
    }
    let text: string;
    let bytes = last + 1;
    if (this.tail) {
      this.tail.push(buf.subarray(0, last + 1));
      bytes += this.tailBytes;
      text = Buffer.concat(this.tail, bytes).toString('utf8');
      this.tail = null;
      this.tailBytes = 0;
    } else {
      text = buf.toString('utf8', 0, last + 1);
    }
    this.ascii = text.length === bytes;
    this.lines(text);
    if (last + 1 < buf.length) this.keep(buf, last + 1);
  }

  /** The stream ended: a final event without its blank line is still delivered (as browsers do not, but upstreams sometimes omit it). */
  end(): void {
    if (this.tail) {
      const bytes = this.tailBytes;
      const text = Buffer.concat(this.tail, bytes).toString('utf8');
      this.tail = null;
      this.tailBytes = 0;
      this.ascii = text.length === bytes;
      this.skipLeadingLF = false;
      this.line(text, 0, text.length);
    }
    this.dispatch();
  }

  /** Bytes after the last line end: copied (the caller's chunk may be reused, and a small tail must not pin a large chunk). */
  private keep(buf: Buffer, from: number): void {
    if (from === buf.length) return;
    (this.tail ??= []).push(Buffer.from(buf.subarray(from)));
    this.tailBytes += buf.length - from;
    if (this.tailBytes + this.eventBytes > this.maxEventBytes) this.overflow();
  }

  /** Split text that ends with a line end (LF, CR or CRLF) into lines. */
  private lines(text: string): void {
    const len = text.length;
    let start = 0;
    if (this.skipLeadingLF) {
      this.skipLeadingLF = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    let cr = text.indexOf('\r', start);
    if (cr === -1) {
      // most upstreams end lines with LF alone: one search per line
      while (start < len) {
        const end = text.indexOf('\n', start);
        this.line(text, start, end);
        start = end + 1;
      }
      return;
    }
    while (start < len) {
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      const lf = text.indexOf('\n', start);
      const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      let next = end + 1;
      if (end === cr) {
        if (next === len) this.skipLeadingLF = true;
        else if (text.charCodeAt(next) === LF) next++;
      }
      this.line(text, start, end);
      start = next;
    }
  }

  private line(text: string, from: number, to: number): void {
    if (from === to) {
      this.dispatch();
      return;
    }
    // the field names this parser acts on, compared by character; comments (": OPENROUTER
    // PROCESSING"), retry and unknown fields are ignored, as the spec says
    const c = text.charCodeAt(from);
    if (c === 0x64 /* d */) {
      const valueAt = fieldValueAt(text, from, to, 'data');
      if (valueAt !== -1) this.data(text, from, valueAt, to);
    } else if (c === 0x65 /* e */) {
      const valueAt = fieldValueAt(text, from, to, 'event');
      if (valueAt !== -1) {
        this.eventName = text.slice(valueAt, to);
        this.sawField = true;
      } else if (this.errorField) {
        const errorAt = fieldValueAt(text, from, to, 'error');
        if (errorAt === -1) return;
        this.eventName = 'error';
        this.data(text, from, errorAt, to);
      }
    } else if (c === 0x69 /* i */) {
      const valueAt = fieldValueAt(text, from, to, 'id');
      if (valueAt !== -1) this.id = text.slice(valueAt, to);
    }
  }

  /** A data line's value (text[valueAt, to)) joins the event being assembled. */
  private data(text: string, from: number, valueAt: number, to: number): void {
    const value = text.slice(valueAt, to);
    this.dataLines.push(value);
    this.sawField = true;
    this.eventBytes += valueAt - from + (this.ascii ? value.length : Buffer.byteLength(value));
    if (this.eventBytes > this.maxEventBytes) this.overflow();
  }

  private overflow(): never {
    this.tail = null;
    this.tailBytes = 0;
    this.dataLines = [];
    this.eventBytes = 0;
    this.sawField = false;
    throw new SseEventTooLarge(this.maxEventBytes);
  }

  private dispatch(): void {
    if (!this.sawField) {
      // an event without data is dropped whole: its name and id do not carry over to the next
      this.eventName = undefined;
      this.id = undefined;
      return;
    }
    const ev: SseEvent = { data: this.dataLines.length === 1 ? this.dataLines[0]! : this.dataLines.join('\n') };
    if (this.eventName !== undefined) ev.event = this.eventName;
    if (this.id !== undefined) ev.id = this.id;
    // Unlike a browser's last-event-id, the id belongs to this event only: nothing here resumes streams.
    this.eventName = undefined;
    this.id = undefined;
    this.dataLines = [];
    this.eventBytes = 0;
    this.sawField = false;
    this.onEvent(ev);
  }
}

/** The position of the last LF or CR in `buf`, or -1. Chunks nearly always end with one. */
function lastLineEnd(buf: Buffer): number {
  const stop = Math.max(0, buf.length - NEAR_END);
  for (let i = buf.length - 1; i >= stop; i--) {
    const b = buf[i]!;
    if (b === LF || b === CR) return i;
  }
  if (stop === 0) return -1;
  return Math.max(buf.lastIndexOf(LF, stop - 1), buf.lastIndexOf(CR, stop - 1));
}

/**
 * Where the value of field `name` starts on the line text[from, to) (after the colon and one
 * optional space), or -1 when the line is another field. A line that is the name alone is that
 * field with an empty value.
 */
function fieldValueAt(text: string, from: number, to: number, name: string): number {
  const n = name.length;
  if (to - from < n) return -1;
  for (let i = 1; i < n; i++) if (text.charCodeAt(from + i) !== name.charCodeAt(i)) return -1;
  const after = from + n;
  if (after === to) return to;
  if (text.charCodeAt(after) !== COLON) return -1;
  return after + 1 < to && text.charCodeAt(after + 1) === SPACE ? after + 2 : after + 1;
}

/** `event: <name>\ndata: <json>\n\n` — Messages and Responses streams always name their events. */
export function sseNamed(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** `data: <json>\n\n` — Chat streams carry no event names. */
export function sseData(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

export const SSE_DONE = 'data: [DONE]\n\n';
