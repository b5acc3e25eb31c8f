/**
 * A large JSON request body whose bulky top-level members stay unparsed until something reads them.
 *
 * Passthrough needs `model`, the effort fields and a few feature checks; the conversation itself
 * (`messages`, `input`, `system`: 100 KB to megabytes for a coding agent) goes upstream as the
 * client sent it (routing/json-splice.ts). Decoding and parsing it anyway cost ~0.9 ms per
 * 300 KB on the bench machine, much of it the kernel zero-filling the pages V8 maps afresh for
 * every string over 128 KB. Here each member of at least LAZY_MEMBER_BYTES is an accessor that
 * parses its own bytes on first read (or is replaced on first write) and from then on is a plain
 * property; the smaller ones are parsed at once. A check that only looks for a marker asks
 * `mayContain` first and reads the member only when its bytes could hold it.
 *
 * A member nobody reads is never validated: its bytes go upstream as they came, and the upstream
 * judges them. A member that is read and is not valid JSON is the client's 400 `invalid_json`.
 * A member that is read keeps its long strings' bytes (verbatim-strings.ts), so a conversion or
 * an edit writes them back without serialising them again.
 */
import { badRequest } from './errors.js';
import { scanArrayElements, type TopLevelMember } from './json-members.js';
import { parseKeepingStrings, VerbatimStrings } from './verbatim-strings.js';

type Obj = Record<string, unknown>;

/** Members this long or longer are parsed on first read. */
export const LAZY_MEMBER_BYTES = 4 * 1024;

const UNPARSED = Symbol('svc-proxy.unparsed-members');
const KEPT = Symbol('svc-proxy.verbatim-strings');

interface UnparsedMember {
  span: Buffer;
  /**
   * Whether the bytes hold a `\u` escape, once a check has asked: the search costs ~0.2 ms per
   * 300 KB of code full of `\n` escapes, and up to three checks ask per request.
   */
  escapes?: boolean;
}

type Unparsed = Map<string, UnparsedMember>;

function parseMember(span: Buffer, key: string, kept: VerbatimStrings): unknown {
  try {
    return parseKeepingStrings(span, kept);
  } catch (err) {
    throw badRequest('invalid_json', `The request body is not valid JSON (in "${key}"): ${(err as Error).message}`);
  }
}

function plainProperty(body: Obj, key: string, value: unknown): void {
  // defineProperty, not assignment: a "__proto__" member stays an own property, as JSON.parse makes it
  Object.defineProperty(body, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The object `members` (all of `raw`'s top level, as scanned) describe, large members lazy. */
export function lazyJsonBody(raw: Buffer, members: readonly TopLevelMember[]): Obj {
  const body: Obj = {};
  const unparsed: Unparsed = new Map();
  const kept = new VerbatimStrings();
  for (const { key, valueStart, end } of members) {
    const span = raw.subarray(valueStart, end);
    if (span.length < LAZY_MEMBER_BYTES) {
      plainProperty(body, key, parseMember(span, key, kept));
      continue;
    }
    unparsed.set(key, { span });
    const settle = (value: unknown): void => {
      unparsed.delete(key);
      plainProperty(body, key, value);
    };
    Object.defineProperty(body, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = parseMember(span, key, kept);
        settle(value);
        return value;
      },
      set(value: unknown) {
        settle(value);
      },
    });
  }
  Object.defineProperty(body, UNPARSED, { value: unparsed });
  Object.defineProperty(body, KEPT, { value: kept });
  return body;
}

/** The long strings read so far from a lazily read body, as the client's bytes (verbatim-strings.ts). */
export function verbatimStringsOf(body: Obj): VerbatimStrings | undefined {
  return (body as { [KEPT]?: VerbatimStrings })[KEPT];
}

function unparsedEntry(body: Obj, key: string): UnparsedMember | undefined {
  const entry = (body as { [UNPARSED]?: Unparsed })[UNPARSED]?.get(key);
  // a deleted member leaves its bytes in the map; only a live accessor is still unparsed
  return entry !== undefined && Object.getOwnPropertyDescriptor(body, key)?.get !== undefined ? entry : undefined;
}

/** The bytes of a member no one has read or replaced yet; undefined for any other (or a body parsed whole). */
export function unparsedMember(body: Obj, key: string): Buffer | undefined {
  return unparsedEntry(body, key)?.span;
}

/**
 * Where `"word"` is in `span` from `from` on, or -1. Buffer.indexOf finds a needle under 8 bytes
 * by memchr on its first byte, a longer one by Boyer-Moore-Horspool keyed on its last byte; in a
 * conversation full of code a quote is every few bytes and both are slow for `"system"` (~150 µs
 * per 340 KB). So the needle is the word's last letters (at most 6) and the closing quote, and the
 * rest is compared where it is found (~30 µs).
 */
function quotedIndex(span: Buffer, word: string, from = 0): number {
  const head = Math.max(0, word.length - 6);
  const tail = `${word.slice(head)}"`;
  const before = `"${word.slice(0, head)}`;
  for (let i = span.indexOf(tail, from + before.length); i !== -1; i = span.indexOf(tail, i + 1)) {
    const start = i - before.length;
    if (span.toString("latin1", start, i) === before) return start;
  }
  return -1;
}

/**
 * Whether member `key` may hold the JSON string `word` (a key or value of plain ASCII letters, `_`
 * or `-`, e.g. a part type). False only for a member still unparsed whose bytes have neither
 * `"word"` nor a `\u` escape that could spell it, so the caller can skip reading it; true
 * otherwise, and the caller looks properly.
 */
export function mayContain(body: Obj, key: string, word: string): boolean {
  const entry = unparsedEntry(body, key);
  if (entry === undefined) return true;
  entry.escapes ??= entry.span.includes('\\u');
  return entry.escapes || quotedIndex(entry.span, word) !== -1;
}

/**
 * Whether member `key` could hold the JSON string `word` twice or more: as `mayContain`, for a
 * check that has work only when a marker repeats (a second system message).
 */
export function mayContainTwice(body: Obj, key: string, word: string): boolean {
  const entry = unparsedEntry(body, key);
  if (entry === undefined) return true;
  entry.escapes ??= entry.span.includes('\\u');
  if (entry.escapes) return true;
  const first = quotedIndex(entry.span, word);
  return first !== -1 && quotedIndex(entry.span, word, first + word.length + 2) !== -1;
}

/**
 * The last element of array member `key` that `accept` takes, or undefined. A member still
 * unparsed stays so: a scan finds its elements (json-members.ts) and, from the last one back, only
 * those whose bytes may hold the JSON string `word` are parsed; a check on the latest turn of a long
 * conversation costs a scan, not a parse of all of it. The element is then a copy: read it only.
 */
export function lastElement(body: Obj, key: string, word: string, accept: (element: unknown) => boolean): unknown {
  let found: unknown;
  walkBack(body, key, [word], (element) => {
    if (!accept(element)) return true;
    found = element;
    return false;
  });
  return found;
}

/**
 * Visit the elements of array member `key` from the last one back until `visit` returns false,
 * skipping, while the member is still unparsed, those whose bytes hold none of the JSON strings
 * `words` (each is parsed on its own, as in `lastElement`: read it only).
 */
export function walkBack(body: Obj, key: string, words: readonly string[], visit: (element: unknown) => boolean): void {
  const entry = unparsedEntry(body, key);
  const elements = entry && scanArrayElements(entry.span);
  if (!entry || !elements) {
    const value = body[key];
    if (!Array.isArray(value)) return;
    for (let i = value.length - 1; i >= 0; i--) if (!visit(value[i])) return;
    return;
  }
  entry.escapes ??= entry.span.includes('\\u');
  const quoted = words.map((word) => `"${word}"`);
  for (let i = elements.length - 1; i >= 0; i--) {
    const { start, end } = elements[i]!;
    const bytes = entry.span.subarray(start, end);
    if (!entry.escapes && !quoted.some((q) => bytes.includes(q))) continue;
    let element: unknown;
    try {
      element = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      throw badRequest('invalid_json', `The request body is not valid JSON (in "${key}"): ${(err as Error).message}`);
    }
    if (!visit(element)) return;
  }
}
