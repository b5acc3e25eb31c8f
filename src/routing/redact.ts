/**
 * Removes a provider credential from text that is about to reach a client or the log.
 *
 * Some providers echo the key, or its last characters ("…provided: sk-****abcd"), in their
 * error messages. Every suffix of a secret ends with the secret's last four characters, so we
 * look for those and widen each hit backwards as far as it keeps matching the secret; a head of
 * one, what a truncated message keeps, is found by its first characters (redactHeads).
 */

import { setMember } from '../protocols/own-members.js';
import { MIN_SECRET_LENGTH } from '../util/key-shapes.js';
import { dropPayload } from '../util/media-placeholder.js';
import { secretForms } from '../util/secret-forms.js';

const MASK = '[REDACTED]';
/** The fewest last characters of a secret that stand for it (no shorter secret is searched for: MIN_SECRET_LENGTH). */
const MIN_TAIL = 4;

/**
 * A text cut short (an error message truncated to a few hundred characters) can end inside the
 * secret: then its tail is gone, and what is left is a head. A head is masked, as far as it
 * matches, once it runs four characters past the key format's public prefix (`sk-proj-`,
 * `sk-ant-api03-`: up to the last `-` or `_` in the first 16 characters) and at least eight in all;
 * the prefix alone says nothing of anyone's key.
 */
function minHead(secret: string): number {
  const start = secret.slice(0, 16);
  const prefix = Math.max(start.lastIndexOf('-'), start.lastIndexOf('_')) + 1;
  return Math.max(8, prefix + MIN_TAIL);
}

/** `text` with the credential masked: whole, its tail or its head, in each of its forms (raw and JSON-escaped). */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || text.length === 0) return text;
  return redactForms(text, secretForms(secret));
}

/**
 * Every whole form first, the most escaped first (it holds no other form whole); then heads and
 * tails, each hit widened as far as any form sharing it keeps matching: forms differ only in how
 * some characters are escaped, so one form's widening alone would stop where another's differs
 * and let the rest of that echo through.
 */
function redactForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (let i = forms.length - 1; i >= 0; i--) if (out.includes(forms[i]!)) out = out.split(forms[i]!).join(MASK);
  for (let i = forms.length - 1; i >= 0; i--) out = redactHead(out, forms[i]!, forms);
  for (let i = forms.length - 1; i >= 0; i--) out = redactTail(out, forms[i]!, forms);
  return out;
}

/** Each run of `text` that starts like `secret` (at least its minHead characters), widened forwards along each form with that start. */
function redactHead(text: string, secret: string, forms: readonly string[]): string {
  const min = minHead(secret);
  if (secret.length <= min) return text;
  const head = secret.slice(0, min);
  let hit = text.indexOf(head);
  if (hit === -1) return text;
  let result = '';
  let copied = 0;
  while (hit !== -1) {
    let end = hit + min;
    for (const form of forms) if (form.startsWith(head)) end = Math.max(end, matchedForwards(text, hit + min, form, min));
    result += text.slice(copied, hit) + MASK;
    copied = end;
    hit = text.indexOf(head, copied);
  }
  return result + text.slice(copied);
}

/** Where `text` stops matching `form` going on from `at`, where it has matched `form`'s first `s` characters. */
function matchedForwards(text: string, at: number, form: string, s: number): number {
  let end = at;
  while (s < form.length && end < text.length && text.charCodeAt(end) === form.charCodeAt(s)) {
    end++;
    s++;
  }
  return end;
}

/** Each run of `text` that ends like `secret` (its last MIN_TAIL characters), widened backwards along each form with that end. */
function redactTail(text: string, secret: string, forms: readonly string[]): string {
  if (secret.length <= MIN_TAIL) return text;
  const tail = secret.slice(-MIN_TAIL);
  let hit = text.indexOf(tail);
  if (hit === -1) return text;
  let result = '';
  let copied = 0;
  while (hit !== -1) {
    let start = hit;
    for (const form of forms) if (form.length > MIN_TAIL && form.endsWith(tail)) start = Math.min(start, matchedBackwards(text, hit, form, copied));
    result += text.slice(copied, start) + MASK;
    copied = hit + MIN_TAIL;
    hit = text.indexOf(tail, copied);
  }
  return result + text.slice(copied);
}

/** Where `text` starts matching `form` from its end, going back from `at` (where `form`'s tail starts), not before `from`. */
function matchedBackwards(text: string, at: number, form: string, from: number): number {
  let start = at;
  let s = form.length - MIN_TAIL - 1;
  while (s >= 0 && start > from && text.charCodeAt(start - 1) === form.charCodeAt(s)) {
    start--;
    s--;
  }
  return start;
}

/** Deeper than this a logged body is cut: JSON nested thousands deep would overflow the stack here. */
const MAX_LOG_DEPTH = 64;

/**
 * Redact every string in a JSON-like value (for --log-bodies), also dropping inline media. Not
 * built on log/redact-body.ts, on purpose: this runs on the request path, where the credential is
 * known (the log never holds it), and makes the copy an entry keeps until the log's flush, media
 * dropped by size alone so a large image is not held that long. Key shapes, secret-named fields and
 * the finer media rules are the log's, at its flush, off the request path: a body passes both.
 */
export function redactForLog(value: unknown, secret: string | undefined): unknown {
  return redactNested(value, secret ? secretForms(secret) : [], 0);
}

function redactNested(value: unknown, forms: readonly string[], depth: number): unknown {
  if (typeof value === 'string') {
    if (value.startsWith('data:') && value.length > 64) return dropPayload(value, (header) => redactForms(header, forms));
    return value.length === 0 ? value : redactForms(value, forms);
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_LOG_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redactNested(v, forms, depth + 1));
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    // base64 payloads of images, documents and audio: keep their size, not their bytes
    if ((key === 'data' || key === 'file_data' || key === 'b64_json') && typeof v === 'string' && v.length > 64) {
      out[key] = dropPayload(v, (header) => redactForms(header, forms));
    } else {
      // a "__proto__" member stays one in the log, as the body had it
      setMember(out, key, redactNested(v, forms, depth + 1));
    }
  }
  return out;
}

/**
 * Redaction for the bytes of a passthrough stream, which otherwise reach the client untouched: an
 * upstream error event may echo the credential or its tail, and the network may cut that echo
 * anywhere. So the redactor works on whole lines: the bytes after a chunk's last newline are held
 * back until the line is complete (an SSE client cannot act on half an event anyway; upstreams
 * nearly always flush at event boundaries, so the common chunk ends in a newline and passes as the
 * same Buffer after one byte search for the secret's last character, one per form of it).
 *
 * A line holding a whole form of the secret is always redacted; one holding just a tail (≥ 4
 * characters) only when it reads as an error, so model output that happens to contain those
 * characters is left alone. All forms are masked together (redactForms), so one form's tail never
 * cuts another's echo short. A line longer than HOLD_LIMIT is let go in pieces, keeping the last
 * bytes of the longest form's length − 1 (enough for any echo that ends in a later chunk) and
 * remembering whether the line so far read as an error.
 */
export class StreamRedactor {
  /** The credential's forms, shortest first (streamSecret). */
  private readonly forms: readonly string[];
  /** The forms' last MIN_TAIL characters, each once: forms escaped apart from their end share one. */
  private readonly tails: readonly string[];
  /** The shortest form's tail (the raw credential's, for the usual one) and its last character. */
  private readonly tail: string;
  private readonly last: number;
  /**
   * The ends of the forms with another tail (escaped in their last characters), each from a
   * backslash of that escape on: such a tail's last character is mostly a hex digit of a
   * `\uXXXX`, common in a chunk, where a byte search would stop often. A chunk is searched for
   * them only when it holds a backslash (a whole line holds an echo's escapes whole).
   */
  private readonly escapedEnds: readonly Buffer[];
  /** Bytes kept back from a long line let go: enough for the end of the longest form's echo. */
  private readonly keep: number;
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** The current line's part already let go (a line past HOLD_LIMIT) read as an error. */
  private lineIsError = false;

  constructor(forms: readonly string[]) {
    this.forms = forms;
    this.tails = [...new Set(forms.map((form) => form.slice(-MIN_TAIL)))];
    this.tail = this.tails[0]!;
    this.last = this.tail.charCodeAt(MIN_TAIL - 1);
    this.escapedEnds = forms
      .filter((form) => !form.endsWith(this.tail))
      .map((form) => form.slice(Math.min(form.lastIndexOf('\\'), form.length - MIN_TAIL)))
      .filter((end, i, all) => all.indexOf(end) === i)
      .map((end) => Buffer.from(end, 'latin1'));
    this.keep = forms[forms.length - 1]!.length - 1;
  }

  /** The bytes that may go to the client now (possibly empty). */
  push(chunk: Buffer): Buffer {
    const nl = chunk.lastIndexOf(NEWLINE);
    if (this.heldBytes === 0 && nl === chunk.length - 1) return this.redactLines(chunk, false);
    if (nl === -1) {
      this.hold(chunk);
      return this.heldBytes > HOLD_LIMIT ? this.letGoLongLine() : EMPTY;
    }
    const complete = nl === chunk.length - 1 ? chunk : chunk.subarray(0, nl + 1);
    const ready = this.heldBytes === 0 ? complete : Buffer.concat([...this.held, complete]);
    const continuesError = this.lineIsError;
    this.held = [];
    this.heldBytes = 0;
    this.lineIsError = false;
    if (nl !== chunk.length - 1) this.hold(chunk.subarray(nl + 1));
    return this.redactLines(ready, continuesError);
  }

  /** The stream ended (or is being ended): whatever is still held, redacted. */
  flush(): Buffer {
    if (this.heldBytes === 0) return EMPTY;
    const rest = Buffer.concat(this.held, this.heldBytes);
    const continuesError = this.lineIsError;
    this.held = [];
    this.heldBytes = 0;
    this.lineIsError = false;
    return this.redactLines(rest, continuesError);
  }

  private hold(bytes: Buffer): void {
    this.held.push(bytes);
    this.heldBytes += bytes.length;
  }

  private letGoLongLine(): Buffer {
    const line = Buffer.concat(this.held, this.heldBytes).toString('latin1');
    this.lineIsError ||= ERRORISH.test(line);
    const redacted = this.lineIsError || this.holdsForm(line) ? redactForms(line, this.forms) : line;
    const out = Buffer.from(redacted.slice(0, redacted.length - this.keep), 'latin1');
    const rest = Buffer.from(redacted.slice(redacted.length - this.keep), 'latin1');
    this.held = [rest];
    this.heldBytes = rest.length;
    return out;
  }

  /** `buf` starts at a line start, or continues a line whose earlier part read as an error. */
  private redactLines(buf: Buffer, continuesError: boolean): Buffer {
    if (!this.holdsTailBytes(buf)) return buf;
    const lines = buf.toString('latin1').split(/(?<=\n)/);
    let changed = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (!this.tails.some((tail) => line.includes(tail))) continue;
      if (this.holdsForm(line) || (i === 0 && continuesError) || ERRORISH.test(line)) {
        lines[i] = redactForms(line, this.forms);
        changed = true;
      }
    }
    return changed ? Buffer.from(lines.join(''), 'latin1') : buf;
  }

  /** Does `buf` hold a form's last MIN_TAIL characters? One byte search for the usual credential, its only tail. */
  private holdsTailBytes(buf: Buffer): boolean {
    let hit = buf.indexOf(this.last);
    while (hit !== -1 && !endsWithTail(buf, hit, this.tail)) hit = buf.indexOf(this.last, hit + 1);
    if (hit !== -1) return true;
    if (this.escapedEnds.length === 0) return false;
    const backslash = buf.indexOf(BACKSLASH);
    if (backslash === -1) return false;
    // an end starts at its last escape's backslash, or at most MIN_TAIL − 1 characters before it
    const from = Math.max(0, backslash - MIN_TAIL);
    for (const end of this.escapedEnds) if (buf.indexOf(end, from) !== -1) return true;
    return false;
  }

  private holdsForm(line: string): boolean {
    return this.forms.some((form) => line.includes(form));
  }
}

const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;
const EMPTY = Buffer.alloc(0);
/**
 * A line that may be an error, whose key tails are masked: not a field that says there is none —
 * every Responses event carries `"error":null`, and a `response.completed` holding the credential's
 * last characters (in a number, say) was cut into invalid JSON.
 */
const ERRORISH = /error(?!"\s*:\s*null)|failed/i;
/** The longest line held whole before it is let go in pieces. */
const HOLD_LIMIT = 64 * 1024;

/** The line redactor for a passthrough stream, or none when the credential cannot be searched for (streamSecret). */
export function streamRedactor(secret: string | undefined): StreamRedactor | undefined {
  const forms = streamSecret(secret);
  return forms === undefined ? undefined : new StreamRedactor(forms);
}

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The secret's forms (util/secret-forms.ts) that answers and stream chunks can be searched for
 * (printable ASCII: the bytes are searched as latin1), or undefined when there are none or it is
 * too short: worked out once per answer or stream. What `provider connect`, `endpoint add` and the
 * environment give is printable ASCII (secrets/credential-check.ts), but the keychain and the 0600
 * file are read unchecked, and a key another tool or a hand edit put there may hold Latin-1 letters
 * (Node sends them in a header): kept as a defence, such a key is searched for by its `\uXXXX`-escaped
 * forms only. The usual key pays one test of the pattern per answer or stream, not per chunk.
 */
export function streamSecret(secret: string | undefined): readonly string[] | undefined {
  if (!secret || secret.length < MIN_SECRET_LENGTH) return undefined;
  if (PRINTABLE_ASCII.test(secret)) return secretForms(secret);
  const ascii = secretForms(secret).filter((form) => PRINTABLE_ASCII.test(form));
  return ascii.length > 0 ? ascii : undefined;
}

/** The MIN_TAIL bytes ending at `end` (inclusive) are `tail` (MIN_TAIL characters). */
function endsWithTail(buf: Buffer, end: number, tail: string): boolean {
  if (end < MIN_TAIL - 1) return false;
  for (let k = 1; k < MIN_TAIL; k++) if (buf[end - k] !== tail.charCodeAt(MIN_TAIL - 1 - k)) return false;
  return true;
}
