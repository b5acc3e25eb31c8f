/**
 * A passthrough Chat stream that ended with a choice finished "abort" (vLLM/SGLang dropped the
 * request) ends with svc-proxy's error event in place of the aborted chunk (stream-relay.ts). This
 * finds where, in the bytes its last tick is about to write, what is dropped begins: the aborted
 * chunk, when it begins in them, else the `[DONE]` that ends them. Run once, on an aborted stream.
 *
 * vLLM and SGLang write `"finish_reason":"abort"` (pydantic, msgspec: no spaces); a server that
 * writes with Python's json.dumps puts a space after the colon, so spaces around it are allowed.
 * The chunk often comes first in its read (the text went out in earlier ones): a data line at the
 * very start of the bytes, or right after the line end that completes the blank line before it,
 * begins the chunk. Lines may end in CRLF (the SSE spec allows it; servers behind some proxies
 * write it), so a blank line ends in `\n\n` or `\n\r\n`.
 */
const LF = 0x0a;
const CR = 0x0d;
const BLANK_LINE = Buffer.from('\n\n');
const CRLF_BLANK_LINE = Buffer.from('\n\r\n');
const ABORT_VALUE = Buffer.from('"abort"');
const FINISH_KEY = Buffer.from('"finish_reason"');
const DATA = Buffer.from('data:');

export function abortedTailStart(bytes: Buffer): number {
  const done = Math.max(bytes.lastIndexOf('data: [DONE]'), bytes.lastIndexOf('data:[DONE]'));
  const end = done === -1 ? bytes.length : done;
  const aborted = abortedFinishAt(bytes, end);
  if (aborted === -1) return end;
  const blank = Math.max(endOfLast(bytes, BLANK_LINE, aborted), endOfLast(bytes, CRLF_BLANK_LINE, aborted));
  if (blank !== -1) return blank;
  const line = bytes.lastIndexOf(LF, aborted) + 1;
  // the bytes begin the chunk's data line (or with the line end before it): the chunk is all here
  const first = line === 0 || (line === 1 && bytes[0] === LF) || (line === 2 && bytes[0] === CR);
  return first && startsWith(bytes, line, DATA) ? line : end;
}

/** Where the last `mark` before `at` ends, or -1. */
function endOfLast(bytes: Buffer, mark: Buffer, at: number): number {
  const i = bytes.lastIndexOf(mark, at);
  return i === -1 ? -1 : i + mark.length;
}

/** Where the last `"finish_reason"` whose value is `"abort"` before `end` is, or -1. */
function abortedFinishAt(bytes: Buffer, end: number): number {
  for (let at = bytes.lastIndexOf(ABORT_VALUE, end); at !== -1; at = at === 0 ? -1 : bytes.lastIndexOf(ABORT_VALUE, at - 1)) {
    let i = at - 1;
    while (i >= 0 && isSpace(bytes[i]!)) i--;
    if (bytes[i] !== 0x3a) continue;
    i--;
    while (i >= 0 && isSpace(bytes[i]!)) i--;
    const key = i + 1 - FINISH_KEY.length;
    if (key >= 0 && startsWith(bytes, key, FINISH_KEY)) return key;
  }
  return -1;
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === LF || b === CR;
}

function startsWith(buf: Buffer, at: number, prefix: Buffer): boolean {
  return buf.length - at >= prefix.length && buf.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;
}
