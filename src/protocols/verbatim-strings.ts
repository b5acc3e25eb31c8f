/**
 * Long JSON strings carried through a conversion as the client's own bytes.
 *
 * Converting a request moves its text (prompts, file contents, tool results) into another shape
 * without changing a character of it. Serialising that text again costs ~6 ns a byte on the bench
 * machine: JSON.stringify looks at every character for escapes, then the result is encoded to
 * UTF-8 once more, 1.7 ms of a 300 KB body. So a large member is read string by string: each
 * string token of at least VERBATIM_MIN_BYTES is decoded on its own and remembered with its
 * bytes, the rest is parsed with JSON.parse, and when a body is serialised every string equal to
 * a remembered one is written as those bytes.
 *
 * Reading this way is no dearer than JSON.parse on a whole member: long strings skip one 300 KB
 * decode of the member, and finding them costs a scan that jumps from quote to quote. Strings
 * longer than a piece are decoded as ropes (rope-decode.ts), and nothing here reads their
 * characters, so a long prompt never becomes one large V8 allocation on its way through.
 */
import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { skipWs, stringEnd } from './json-members.js';
import { decodeTokenAsRope, PIECE_BYTES } from './rope-decode.js';

/** String tokens this long or longer (quotes included) are kept as bytes. */
export const VERBATIM_MIN_BYTES = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * Placeholders for long strings while the rest is parsed or serialised: a NUL and a per-process
 * nonce no client can know, so no string a client sends can pass for one.
 */
const MARK = `\u0000${randomBytes(8).toString('hex')}:`;
/** MARK as JSON.stringify writes it, opening quote included. */
const MARK_IN_JSON = `"${JSON.stringify(MARK).slice(1, -1)}`;

/**
 * Whether buf[start, end) holds a byte below 0x20: JSON forbids raw control characters inside
 * strings, and JSON.parse refuses them. Four bytes at a time (a byte b < 0x20 is the only one for
 * which (b - 0x20) & ~b has its top bit set; a borrow only spreads upwards from such a byte):
 * 0.11 ms per 300 KB here, a regular expression over the decoded string 0.26.
 */
function hasControlByte(buf: Buffer, start: number, end: number): boolean {
  let i = start;
  const aligned = Math.min(end, start + ((4 - ((buf.byteOffset + start) & 3)) & 3));
  for (; i < aligned; i++) if (buf[i]! < 0x20) return true;
  const words = (end - i) >> 2;
  if (words > 0) {
    const view = new Int32Array(buf.buffer, buf.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      const w = view[k]!;
      if (((w - 0x20202020) & ~w & 0x80808080) !== 0) return true;
    }
    i += words * 4;
  }
  for (; i < end; i++) if (buf[i]! < 0x20) return true;
  return false;
}

/** Decoded long strings and the JSON tokens (quotes included) they were read from. */
export class VerbatimStrings {
  /**
   * By length, not by content: a Map keyed by the strings would hash every character of each
   * (~1.5 ns a character here, a third of the reading). The string looked up is almost always the
   * very one read, and === finds it by pointer. Reading any character of a long string would
   * flatten it if it is a rope (rope-decode.ts), so characters are looked at only when two kept
   * strings share a length: then each is told apart by its middle and last characters before ===
   * (which for another string of that length compares characters up to the first that differs:
   * tool results of one length that differ only at the end would otherwise cost that many full
   * comparisons each).
   */
  private readonly byLength = new Map<number, Kept[]>();
  private count = 0;
  /** No kept string is shorter: shorter ones are not looked up. */
  private shortest = Infinity;

  get size(): number {
    return this.count;
  }

  add(value: string, token: Buffer): void {
    const entry: Kept = { value, token, middle: -1, last: -1 };
    const same = this.byLength.get(value.length);
    if (same === undefined) this.byLength.set(value.length, [entry]);
    else {
      same.push(entry);
      for (const kept of same) if (kept.last === -1) setEnds(kept);
    }
    this.count++;
    if (value.length < this.shortest) this.shortest = value.length;
  }

  /** The client's token for `value`, when it is a kept string. */
  tokenFor(value: string): Buffer | undefined {
    if (value.length < this.shortest) return undefined;
    const same = this.byLength.get(value.length);
    if (same === undefined) return undefined;
    if (same.length === 1) return same[0]!.value === value ? same[0]!.token : undefined;
    const middle = value.charCodeAt(value.length >> 1);
    const last = value.charCodeAt(value.length - 1);
    for (const kept of same) if (kept.last === last && kept.middle === middle && kept.value === value) return kept.token;
    return undefined;
  }
}

interface Kept {
  value: string;
  token: Buffer;
  /** Character codes, set once another kept string has the same length (else -1). */
  middle: number;
  last: number;
}

function setEnds(kept: Kept): void {
  kept.middle = kept.value.charCodeAt(kept.value.length >> 1);
  kept.last = kept.value.charCodeAt(kept.value.length - 1);
}

/** [start, end) of every long string value in `span` (keys stay where they are). */
function longStringTokens(span: Buffer): number[] {
  const found: number[] = [];
  const n = span.length;
  let i = 0;
  while (i < n) {
    if (span[i] !== QUOTE) {
      i++;
      continue;
    }
    const end = stringEnd(span, i);
    if (end === -1) break; // unterminated: JSON.parse reports it
    if (end - i >= VERBATIM_MIN_BYTES && span[skipWs(span, end)] !== COLON) found.push(i, end);
    i = end;
  }
  return found;
}

/** Decodes string tokens, remembering where the next backslash is so each search is done once. */
class TokenDecoder {
  private nextBackslash = -2;

  constructor(private readonly span: Buffer) {}

  /** `utf8`: the token's bytes are valid UTF-8 (only then may it be cut into a rope). */
  decode(start: number, end: number, utf8: boolean): string {
    const { span } = this;
    if (this.nextBackslash !== -1 && this.nextBackslash < start) this.nextBackslash = span.indexOf(BACKSLASH, start);
    const escaped = this.nextBackslash !== -1 && this.nextBackslash < end;
    // no escapes: the bytes between the quotes are the string
    if (!escaped && hasControlByte(span, start + 1, end - 1)) throw new SyntaxError('Bad control character in string literal');
    if (utf8 && end - start > PIECE_BYTES) {
      const rope = decodeTokenAsRope(span, start, end, escaped);
      if (rope !== undefined) return rope;
    }
    if (!escaped) return span.toString('utf8', start + 1, end - 1);
    const value: unknown = JSON.parse(span.toString('utf8', start, end));
    return value as string;
  }
}

function placeholderIndex(value: string, count: number): number {
  if (value.charCodeAt(0) !== 0 || !value.startsWith(MARK)) return -1;
  const index = Number(value.slice(MARK.length));
  return Number.isInteger(index) && index >= 0 && index < count ? index : -1;
}

/** Put the decoded strings back where their placeholders are, in place. */
function restore(value: unknown, strings: string[]): unknown {
  let left = strings.length;
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const index = placeholderIndex(v, strings.length);
      if (index === -1) return v;
      left--;
      return strings[index];
    }
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && left > 0; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string' || (typeof item === 'object' && item !== null)) v[i] = visit(item);
      }
      return v;
    }
    const obj = v as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      if (left === 0) break;
      const item = obj[key];
      if (typeof item === 'string' || (typeof item === 'object' && item !== null)) {
        const back = visit(item);
        // a "__proto__" member is an own data property here, so assigning to it does not set the prototype
        if (back !== item) obj[key] = back;
      }
    }
    return obj;
  };
  return visit(value);
}

/**
 * JSON.parse of `span`, remembering its long strings' tokens in `kept`. Invalid JSON throws
 * JSON.parse's own SyntaxError for the whole span.
 */
export function parseKeepingStrings(span: Buffer, kept: VerbatimStrings): unknown {
  // too short to hold a long string: no scan (a large body's small members come this way)
  const tokens = span.length < VERBATIM_MIN_BYTES ? [] : longStringTokens(span);
  if (tokens.length === 0) return JSON.parse(span.toString('utf8'));
  const strings: string[] = [];
  let skeleton = '';
  let at = 0;
  try {
    const decoder = new TokenDecoder(span);
    const utf8: boolean[] = [];
    for (let t = 0; t < tokens.length; t += 2) {
      const start = tokens[t]!;
      const end = tokens[t + 1]!;
      skeleton += `${span.toString('utf8', at, start)}${MARK_IN_JSON}${strings.length}"`;
      const valid = isUtf8(span.subarray(start, end));
      utf8.push(valid);
      strings.push(decoder.decode(start, end, valid));
      at = end;
    }
    skeleton += span.toString('utf8', at);
    const value = restore(JSON.parse(skeleton), strings);
    for (let t = 0; t < tokens.length; t += 2) {
      // bytes that are not UTF-8 were decoded to U+FFFD: the string is theirs no longer
      if (utf8[t / 2]) kept.add(strings[t / 2]!, span.subarray(tokens[t], tokens[t + 1]));
    }
    return value;
  } catch {
    // the whole span again: JSON.parse's own message and position for the client's bytes
    return JSON.parse(span.toString('utf8'));
  }
}

/** A copy of `value` with kept strings replaced by placeholders (untouched branches shared). */
function markKept(value: unknown, kept: VerbatimStrings, used: Buffer[]): unknown {
  if (typeof value === 'string') {
    const token = kept.tokenFor(value);
    if (token === undefined) return value;
    used.push(token);
    return `${MARK}${used.length - 1}`;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const marked = markKept(item, kept, used);
      if (marked !== item) (copy ??= value.slice())[i] = marked;
    }
    return copy ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  // anything but a plain object (a toJSON, a Date) is serialised as it is
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return value;
  const obj = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(obj)) {
    const item = obj[key];
    const marked = markKept(item, kept, used);
    if (marked !== item) (copy ??= { ...obj })[key] = marked; // the spread copied every member as own, "__proto__" too
  }
  return copy ?? obj;
}

/**
 * JSON.stringify(value), with every string `kept` holds written as the client's token. A string
 * when nothing was kept, else the bytes.
 */
export function stringifyKeepingStrings(value: unknown, kept: VerbatimStrings | undefined): string | Buffer {
  if (kept === undefined || kept.size === 0) return JSON.stringify(value);
  const used: Buffer[] = [];
  const text = JSON.stringify(markKept(value, kept, used));
  if (used.length === 0) return text;
  const pieces: (string | Buffer)[] = [];
  let size = 0;
  let at = 0;
  for (;;) {
    const mark = text.indexOf(MARK_IN_JSON, at);
    if (mark === -1) break;
    const close = text.indexOf('"', mark + MARK_IN_JSON.length);
    const token = used[Number(text.slice(mark + MARK_IN_JSON.length, close))]!;
    const before = text.slice(at, mark);
    pieces.push(before, token);
    size += Buffer.byteLength(before) + token.length;
    at = close + 1;
  }
  const rest = text.slice(at);
  pieces.push(rest);
  size += Buffer.byteLength(rest);
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const piece of pieces) offset += typeof piece === 'string' ? out.write(piece, offset) : piece.copy(out, offset);
  return out;
}
