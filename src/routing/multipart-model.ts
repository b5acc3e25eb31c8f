/**
 * Rewriting the `model` field of a multipart/form-data upload as it streams through.
 *
 * The target is only known once the `model` value has been read, so everything before it is
 * held (clients usually send `model` after the file: the hold is bounded by the body limit).
 * Once it is read, the held bytes go out with the value replaced and the rest of the upload is
 * forwarded chunk by chunk without being scanned. The scanner works on raw bytes and keeps only
 * what a match may still need, so any split of the input — at every byte — gives the same result.
 */

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_VALUE_BYTES = 4 * 1024;

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

/** The boundary of a multipart/form-data content type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const [type, ...params] = contentType.split(';');
  if (type!.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq === -1 || p.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    let value = p.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    return value.length > 0 && value.length <= 70 ? value : undefined;
  }
  return undefined;
}

type State = 'delimiter' | 'after_delimiter' | 'headers' | 'value' | 'done';

/** Finds the `model` field's value and its byte span in the whole upload. */
export class MultipartModelRewriter {
  /** The value of the `model` field, once read. */
  model: string | undefined;

  /** `\r\n--boundary`; the first delimiter may open the body without the CRLF. */
  private readonly delimiter: Buffer;
  private state: State = 'delimiter';
  /** Unscanned or still-needed bytes, starting at absolute offset `base`. */
  private pending: Buffer;
  private base = -2; // the virtual CRLF in front of the body
  private valueStart = -1;
  private valueEnd = -1;
  private readonly held: Buffer[] = [];
  private heldBytes = 0;
  private released = false;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    this.pending = CRLF;
  }

  /** Feed upload bytes. Returns true once the model value is known (then call release()). */
  push(chunk: Buffer): boolean {
    if (this.released) throw new Error('push() after release(): forward the rest directly');
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.state === 'done') return true;
    const data = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    this.scan(data);
    return this.model !== undefined;
  }

  /** All bytes held so far, with the model value replaced. Later chunks need no rewriting. */
  release(replacement: string): Buffer[] {
    if (this.state !== 'done') throw new Error('release() before the model value was read');
    this.released = true;
    const out = [...this.range(0, this.valueStart), Buffer.from(replacement, 'utf8'), ...this.range(this.valueEnd, this.heldBytes)];
    this.held.length = 0;
    return out.filter((b) => b.length > 0);
  }

  /** Held bytes [from, to) as slices of the held chunks. */
  private range(from: number, to: number): Buffer[] {
    const out: Buffer[] = [];
    let offset = 0;
    for (const chunk of this.held) {
      const end = offset + chunk.length;
      if (end > from && offset < to) out.push(chunk.subarray(Math.max(0, from - offset), Math.min(chunk.length, to - offset)));
      offset = end;
    }
    return out;
  }

  /** Byte length change of the upload once `replacement` is put in (for Content-Length). */
  lengthDelta(replacement: string): number {
    return Buffer.byteLength(replacement, 'utf8') - (this.valueEnd - this.valueStart);
  }

  get heldLength(): number {
    return this.heldBytes;
  }

  private keep(data: Buffer, from: number): void {
    this.pending = from >= data.length ? Buffer.alloc(0) : data.subarray(from);
    this.base += from;
  }

  private scan(data: Buffer): void {
    let pos = 0;
    for (;;) {
      switch (this.state) {
        case 'delimiter': {
          const at = data.indexOf(this.delimiter, pos);
          if (at === -1) {
            // keep only what could still begin a delimiter
            this.keep(data, Math.max(pos, data.length - (this.delimiter.length - 1)));
            return;
          }
          pos = at + this.delimiter.length;
          this.state = 'after_delimiter';
          break;
        }
        case 'after_delimiter': {
          if (data.length - pos < 2) {
            this.keep(data, pos);
            return;
          }
          if (data[pos] === 0x2d && data[pos + 1] === 0x2d) throw new MultipartError('The upload has no "model" field.');
          // transport padding, then CRLF
          const eol = data.indexOf(CRLF, pos);
          if (eol === -1) {
            if (data.length - pos > 256) throw new MultipartError('Malformed multipart body (bad delimiter line).');
            this.keep(data, pos);
            return;
          }
          // headers are searched from this CRLF, so a part without headers ends them at once
          pos = eol;
          this.state = 'headers';
          break;
        }
        case 'headers': {
          const end = data.indexOf(HEADER_END, pos);
          if (end === -1) {
            if (data.length - pos > MAX_HEADER_BYTES) throw new MultipartError('Multipart part headers are too large.');
            this.keep(data, pos);
            return;
          }
          const headers = data.toString('latin1', pos + 2, Math.max(pos + 2, end));
          pos = end + 4;
          if (fieldName(headers) === 'model') {
            this.valueStart = this.base + pos;
            this.state = 'value';
          } else {
            // the part's body runs to the next delimiter
            this.state = 'delimiter';
          }
          break;
        }
        case 'value': {
          const at = data.indexOf(this.delimiter, pos);
          if (at === -1) {
            if (data.length - pos > MAX_VALUE_BYTES + this.delimiter.length) throw new MultipartError('The "model" field is too long.');
            this.keep(data, pos);
            return;
          }
          if (at - pos > MAX_VALUE_BYTES) throw new MultipartError('The "model" field is too long.');
          this.valueEnd = this.base + at;
          this.model = data.toString('utf8', pos, at);
          this.state = 'done';
          this.keep(data, data.length);
          return;
        }
        case 'done':
          return;
      }
    }
  }
}

/** The `name` of a form-data part (its Content-Disposition), when it is a plain field. */
function fieldName(headers: string): string | undefined {
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1 || line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const value = line.slice(colon + 1);
    if (/;\s*filename\*?=/i.test(value)) return undefined;
    const m = /;\s*name="([^"]*)"/i.exec(value) ?? /;\s*name=([^;\s]+)/i.exec(value);
    return m ? m[1] : undefined;
  }
  return undefined;
}
