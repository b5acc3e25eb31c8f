/**
 * OpenAI's Responses API refuses a `call_id` over 64 characters (400 string_above_max_length). A
 * converted conversation's history goes with such ids shortened (protocols/responses/call-id-limit.ts);
 * a Responses client's own body, passed through, may hold them too: Codex going on on `openai/…`
 * with a session Kimi began (`functions.<long MCP tool name>:<n>`). The same shortening applies,
 * on a call and its output alike.
 *
 * Only when such an id is there: the conversation is a client's hundreds of KB, usually still
 * unparsed (lazy-json.ts), and is then only scanned for a `"call_id"` whose value is that long.
 */
import { unparsedMember } from '../protocols/lazy-json.js';
import { MAX_CALL_ID, wireCallId } from '../protocols/responses/call-id-limit.js';
import { isObject } from '../util/is-object.js';

type Obj = Record<string, unknown>;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/**
 * What is searched for: the key's last letter, its quote and the colon that JSON writers put right
 * after it (JSON.stringify, serde, Python's json, indented or not). A needle under 8 bytes is
 * found by memchr on its first byte and compared there; inside a string value a quote is escaped,
 * so this matches little but keys (~30 µs per 220 KB of Codex-like history, against ~100 µs for
 * `_id"`, frequent in code).
 */
const KEY_END = Buffer.from('d":');
const KEY_START = Buffer.from('"call_i');

/** Shorten the input's call ids over OpenAI's limit, in place. */
export function fitLongCallIds(body: Obj): void {
  const span = unparsedMember(body, 'input');
  if (span !== undefined ? !hasLongCallId(span) : !hasLongParsedCallId(body.input)) return;
  const input = body.input;
  if (!Array.isArray(input)) return;
  for (const item of input) {
    if (isObject(item) && typeof item.call_id === 'string' && item.call_id.length > MAX_CALL_ID) item.call_id = wireCallId(item.call_id);
  }
}

function hasLongParsedCallId(input: unknown): boolean {
  if (!Array.isArray(input)) return false;
  for (const item of input) if (isObject(item) && typeof item.call_id === 'string' && item.call_id.length > MAX_CALL_ID) return true;
  return false;
}

/**
 * Whether the bytes hold `"call_id"` followed by a string value of more than MAX_CALL_ID bytes. A
 * character takes at least one byte, so none is longer in characters when this says no; an
 * escaped one may say yes for fewer characters, and the parsed input decides then.
 */
export function hasLongCallId(span: Buffer): boolean {
  for (let at = span.indexOf(KEY_END); at !== -1; at = span.indexOf(KEY_END, at + KEY_END.length)) {
    if (!endsWithAt(span, at, KEY_START)) continue;
    let i = at + KEY_END.length;
    while (span[i] === 0x20 || span[i] === 0x0a || span[i] === 0x0d || span[i] === 0x09) i++;
    if (span[i++] !== QUOTE) continue;
    const start = i;
    while (i < span.length && span[i] !== QUOTE) i += span[i] === BACKSLASH ? 2 : 1;
    if (i - start > MAX_CALL_ID) return true;
  }
  return false;
}

/** The bytes just before `at` are `prefix`. */
function endsWithAt(buf: Buffer, at: number, prefix: Buffer): boolean {
  const from = at - prefix.length;
  if (from < 0) return false;
  for (let k = 0; k < prefix.length; k++) if (buf[from + k] !== prefix[k]) return false;
  return true;
}
