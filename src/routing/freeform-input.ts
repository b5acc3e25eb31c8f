/**
 * The input text of a freeform tool's call, read out of the JSON arguments a target wrote for the
 * function standing in for the tool (`{"input": "…"}`, see freeform-tools.ts).
 *
 * Fed the arguments piece by piece as they stream, it gives out the decoded string as soon as each
 * character is certain: an escape cut between two pieces waits for its end, and a high surrogate
 * for the low one after it (half a pair alone in a delta would reach the client as U+FFFD).
 * Arguments shaped otherwise (another key first, not an object, not JSON) are kept whole and
 * decided at the end: an object with a string `input` gives that, an object whose only member is
 * a string gives that, anything else is the text itself. A stream cut inside the value gives what
 * was decoded of it.
 */

/**
 * Where the reading is: before the value (`{`, the key, `:`, the opening quote), inside it, past
 * it, or given up on the shape (`raw`: everything is kept for the end).
 */
type State = 'start' | 'key-open' | 'key' | 'colon' | 'value-open' | 'value' | 'done' | 'raw';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const U = 0x75;
const HEX4 = /^[0-9A-Fa-f]{4}$/;

/** JSON's one-character escapes, by the character after the backslash. */
const ESCAPED: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function isSpace(c: string): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t';
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export class FreeformInput {
  private state: State = 'start';
  /** The arguments as received, while they may still need deciding at the end. */
  private raw = '';
  /** The key read so far, as JSON text (escapes undecoded). */
  private key = '';
  private keyEscaped = false;
  /** An escape begun at the end of the last piece (`\`, `\u00`). */
  private escape = '';
  /** A decoded high surrogate waiting for the next character. */
  private high = '';

  /** Feed the next piece of the arguments; returns the input text it completes (often ''). */
  push(json: string): string {
    if (this.state === 'done' || json.length === 0) return '';
    if (this.state === 'value') return this.value(json);
    this.raw += json;
    if (this.state === 'raw') return '';
    const from = this.head(json);
    if (from === undefined) return '';
    // the shape is known from here on: nothing left to decide at the end
    this.raw = '';
    return this.value(json.slice(from));
  }

  /** The arguments are complete (or cut off): the rest of the input text. */
  end(): string {
    const state = this.state;
    this.state = 'done';
    if (state === 'value' || state === 'done') {
      // an escape still unfinished decodes to nothing: it was cut off
      const rest = this.high;
      this.high = '';
      this.escape = '';
      return rest;
    }
    const text = this.raw;
    this.raw = '';
    return decideWhole(text);
  }

  /**
   * Reads `{"input":"` across pieces; returns where the value's characters start in `json` once
   * its opening quote is in it, else undefined.
   */
  private head(json: string): number | undefined {
    for (let i = 0; i < json.length; i++) {
      const c = json[i]!;
      if (this.state === 'key') {
        if (c === '"' && !this.keyEscaped) {
          this.state = keyText(this.key) === 'input' ? 'colon' : 'raw';
        } else {
          this.keyEscaped = c === '\\' && !this.keyEscaped;
          this.key += c;
        }
      } else if (!isSpace(c)) {
        const step = STEPS[this.state];
        this.state = step !== undefined && c === step.expect ? step.next : 'raw';
      }
      if (this.state === 'value') return i + 1;
      if (this.state === 'raw') return undefined;
    }
    return undefined;
  }

  /** Decodes string characters up to the closing quote, holding back what is not yet certain. */
  private value(piece: string): string {
    const text = this.escape + piece;
    this.escape = '';
    let out = '';
    let plainFrom = 0;
    let i = 0;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === QUOTE) {
        this.state = 'done';
        return this.settle(out + text.slice(plainFrom, i), true);
      }
      if (code !== BACKSLASH) {
        i++;
        continue;
      }
      out += text.slice(plainFrom, i);
      const decoded = decodeEscape(text, i);
      if (decoded === undefined) {
        this.escape = text.slice(i);
        return this.settle(out, false);
      }
      out += decoded.text;
      i += decoded.length;
      plainFrom = i;
    }
    return this.settle(out + text.slice(plainFrom), false);
  }

  /** Joins a held high surrogate in front; holds a new one back unless the value has ended. */
  private settle(out: string, final: boolean): string {
    let text = this.high + out;
    this.high = '';
    if (!final && text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.high = text.slice(-1);
      text = text.slice(0, -1);
    }
    return text;
  }
}

/** Outside the key, the character each state before the value waits for, and the state after it. */
const STEPS: Partial<Record<State, { expect: string; next: State }>> = {
  start: { expect: '{', next: 'key-open' },
  'key-open': { expect: '"', next: 'key' },
  colon: { expect: ':', next: 'value-open' },
  'value-open': { expect: '"', next: 'value' },
};

/**
 * The escape at `text[at]` (a backslash): its text and length, or undefined when the piece ends
 * before it does. An escape JSON does not know is taken leniently, as the character after `\`.
 */
function decodeEscape(text: string, at: number): { text: string; length: number } | undefined {
  if (at + 1 >= text.length) return undefined;
  const c = text[at + 1]!;
  if (text.charCodeAt(at + 1) !== U) return { text: ESCAPED[c] ?? c, length: 2 };
  if (at + 6 > text.length) return undefined;
  const hex = text.slice(at + 2, at + 6);
  // not an escape JSON knows: the `u` alone, and what follows is read as characters again
  if (!HEX4.test(hex)) return { text: 'u', length: 2 };
  return { text: String.fromCharCode(parseInt(hex, 16)), length: 6 };
}

/** A key's JSON text decoded (undefined when it is not a valid JSON string). */
function keyText(key: string): string | undefined {
  try {
    return JSON.parse(`"${key}"`) as string;
  } catch {
    return undefined;
  }
}

/** Arguments not shaped `{"input": "…"}` as they arrived, decided whole. */
function decideWhole(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return text;
  const members = parsed as Record<string, unknown>;
  if (typeof members.input === 'string') return members.input;
  const values = Object.values(members);
  return values.length === 1 && typeof values[0] === 'string' ? values[0] : text;
}

/** The input text of a whole call's arguments (the same reading as a stream's). */
export function freeformInputOf(args: string): string {
  const reader = new FreeformInput();
  return reader.push(args) + reader.end();
}
