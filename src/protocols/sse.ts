/**
 * Server-sent events: an incremental parser over raw bytes and a writer.
 *
 * The parser splits on line ends in bytes and decodes a line only once it is complete, so a chunk
 * boundary anywhere — including inside a multi-byte UTF-8 character or between \r and \n — is
 * harmless. It keeps only the unfinished tail of the input; memory stays flat however long the
 * stream runs.
 */

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
  private tail: Buffer | null = null;
  private skipLeadingLF = false;
  private eventName: string | undefined;
  private dataLines: string[] = [];
  private id: string | undefined;
  private sawField = false;
  private readonly onEvent: (ev: SseEvent) => void;

  constructor(onEvent: (ev: SseEvent) => void) {
    this.onEvent = onEvent;
  }

  /** Feed bytes as they arrive. Events are delivered synchronously through the callback. */
  push(chunk: Uint8Array): void {
    let buf: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.tail) {
      buf = Buffer.concat([this.tail, buf]);
      this.tail = null;
    }
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
        this.line(buf, start, i);
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
    if (start < len) this.tail = Buffer.from(buf.subarray(start));
  }

  /** The stream ended: a final event without its blank line is still delivered (as browsers do not, but upstreams sometimes omit it). */
  end(): void {
    if (this.tail) {
      const t = this.tail;
      this.tail = null;
      this.line(t, 0, t.length);
    }
    this.dispatch();
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
