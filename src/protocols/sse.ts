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
    // line ends found with indexOf (memchr), not a byte loop; a CR is rare (most upstreams end
    // lines with LF alone), so its next position is looked up once and reused until passed
    let cr = buf.indexOf(CR, start);
    while (start < len) {
      const lf = buf.indexOf(LF, start);
      if (cr !== -1 && cr < start) cr = buf.indexOf(CR, start);
      const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      if (end === -1) break;
      if (this.tail) {
        this.tail.push(buf.subarray(start, end));
        const whole = Buffer.concat(this.tail, this.tailBytes + end - start);
        this.tail = null;
        this.tailBytes = 0;
        this.line(whole, 0, whole.length);
      } else {
        this.line(buf, start, end);
      }
      let next = end + 1;
      if (end === cr) {
        if (next < len) {
          if (buf[next] === LF) next++;
        } else {
          this.skipLeadingLF = true;
        }
      }
      start = next;
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
    const colon = buf.indexOf(0x3a, from);
    const fieldEnd = colon === -1 || colon > to ? to : colon;
    let value = '';
    if (fieldEnd < to) {
      let vStart = fieldEnd + 1;
      if (vStart < to && buf[vStart] === 0x20) vStart++;
      value = buf.toString('utf8', vStart, to);
    }
    // the field name compared as bytes: no string for it on every line
    switch (fieldName(buf, from, fieldEnd)) {
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

/** The field names the parser acts on, read from bytes; anything else is `undefined`. */
function fieldName(buf: Buffer, from: number, to: number): 'data' | 'event' | 'id' | undefined {
  const n = to - from;
  if (n === 4 && buf[from] === 0x64 && buf[from + 1] === 0x61 && buf[from + 2] === 0x74 && buf[from + 3] === 0x61) return 'data';
  if (n === 5 && buf[from] === 0x65 && buf[from + 1] === 0x76 && buf[from + 2] === 0x65 && buf[from + 3] === 0x6e && buf[from + 4] === 0x74) return 'event';
  if (n === 2 && buf[from] === 0x69 && buf[from + 1] === 0x64) return 'id';
  return undefined;
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
