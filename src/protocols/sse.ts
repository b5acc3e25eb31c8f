/**
 * Server-sent events: an incremental parser over raw bytes and a writer.
 *
 * The parser splits on line ends in bytes and decodes a line only once it is complete, so a chunk
 * boundary anywhere — including inside a multi-byte UTF-8 character or between \r and \n — is
 * harmless. It keeps only the unfinished tail of the input, as a list of pieces joined once when
 * the line ends (a long line arriving in many chunks costs linear time, not quadratic); memory
 * stays flat however long the stream runs, and one event may not grow past `maxEventBytes`.
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

const LF = 0x0a;
const CR = 0x0d;

export class SseParser {
  /** The unfinished line, as copied pieces of earlier chunks (joined once the line ends). */
  private tail: Buffer[] | null = null;
  private tailBytes = 0;
  /** Bytes of the event being assembled (its data lines so far). */
  private eventBytes = 0;
  private skipLeadingLF = false;
  private eventName: string | undefined;
  private dataLines: string[] = [];
  private id: string | undefined;
  private sawField = false;
  private readonly onEvent: (ev: SseEvent) => void;
  private readonly maxEventBytes: number;

  constructor(onEvent: (ev: SseEvent) => void, maxEventBytes = MAX_SSE_EVENT_BYTES) {
    this.onEvent = onEvent;
    this.maxEventBytes = maxEventBytes;
  }

  /**
   * Feed bytes as they arrive. Events are delivered synchronously through the callback. Throws
   * SseEventTooLarge when one event (or line) grows past the bound.
   */
  push(chunk: Uint8Array): void {
    const buf: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    if (this.skipLeadingLF) {
      this.skipLeadingLF = false;
      if (buf.length > 0 && buf[0] === LF) start = 1;
    }
    const len = buf.length;
    let i = start;
    while (i < len) {
      const b = buf[i];
      if (b === LF || b === CR) {
        if (this.tail) {
          this.tail.push(buf.subarray(start, i));
          const whole = Buffer.concat(this.tail, this.tailBytes + i - start);
          this.tail = null;
          this.tailBytes = 0;
          this.line(whole, 0, whole.length);
        } else {
          this.line(buf, start, i);
        }
        if (b === CR) {
          if (i + 1 < len) {
            if (buf[i + 1] === LF) i++;
          } else {
            this.skipLeadingLF = true;
          }
        }
        start = i + 1;
      }
      i++;
    }
    if (start < len) {
      // copied: the caller's chunk may be reused, and a small tail must not pin a large chunk
      (this.tail ??= []).push(Buffer.from(buf.subarray(start)));
      this.tailBytes += len - start;
      if (this.tailBytes + this.eventBytes > this.maxEventBytes) this.overflow();
    }
  }

  /** The stream ended: a final event without its blank line is still delivered (as browsers do not, but upstreams sometimes omit it). */
  end(): void {
    if (this.tail) {
      const t = Buffer.concat(this.tail, this.tailBytes);
      this.tail = null;
      this.tailBytes = 0;
      this.line(t, 0, t.length);
    }
    this.dispatch();
  }

  private overflow(): never {
    this.tail = null;
    this.tailBytes = 0;
    this.dataLines = [];
    this.eventBytes = 0;
    this.sawField = false;
    throw new SseEventTooLarge(this.maxEventBytes);
  }

  private line(buf: Buffer, from: number, to: number): void {
    if (from === to) {
      this.dispatch();
      return;
    }
    if (buf[from] === 0x3a /* ':' comment, e.g. ": OPENROUTER PROCESSING" */) return;
    let colon = -1;
    for (let j = from; j < to; j++) {
      if (buf[j] === 0x3a) {
        colon = j;
        break;
      }
    }
    const field = buf.toString('utf8', from, colon === -1 ? to : colon);
    let value = '';
    if (colon !== -1) {
      let vStart = colon + 1;
      if (vStart < to && buf[vStart] === 0x20) vStart++;
      value = buf.toString('utf8', vStart, to);
    }
    switch (field) {
      case 'data':
        this.dataLines.push(value);
        this.sawField = true;
        this.eventBytes += to - from;
        if (this.eventBytes > this.maxEventBytes) this.overflow();
        break;
      case 'event':
        this.eventName = value;
        this.sawField = true;
        break;
      case 'id':
        this.id = value;
        break;
      default:
        // retry and unknown fields are ignored, as the spec says
        break;
    }
  }

  private dispatch(): void {
    if (!this.sawField) {
      this.eventName = undefined;
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

/** `event: <name>\ndata: <json>\n\n` — Messages and Responses streams always name their events. */
export function sseNamed(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** `data: <json>\n\n` — Chat streams carry no event names. */
export function sseData(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

export const SSE_DONE = 'data: [DONE]\n\n';
