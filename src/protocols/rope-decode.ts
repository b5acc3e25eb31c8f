/**
 * Decoding a long JSON string token as a rope: pieces joined with `+`.
 *
 * V8 gives every string over 128 KB a memory mapping of its own (its large-object space): a fresh
 * mmap, a page fault per 4 KB page as it is written, an munmap after a later collection. On the
 * bench VM that is ~1.1 ms for one 300 KB string (77 page faults), against 0.02 ms for the same
 * bytes decoded as ten 30 KB pieces, which V8 joins into a cons string over young-generation
 * pieces. The rope is flattened — the large allocation after all — only when something reads its
 * characters (charCodeAt, startsWith, comparing it with another string); a prompt or a file that a
 * conversion carries along untouched and writes back as the client's bytes (verbatim-strings.ts)
 * never is.
 */

const BACKSLASH = 0x5c;
const U = 0x75;

/**
 * Bytes per piece: at most as many characters, so at most 64 KB as UTF-16, under V8's 128 KB
 * threshold whatever the text.
 */
export const PIECE_BYTES = 32 * 1024;

/**
 * How far a cut may move back: to the start of a UTF-8 character (3 bytes), then before an escape
 * (`\uXXXX`, 5 more). Only invalid UTF-8 would need more; the caller decodes such tokens whole.
 */
const MAX_BACKTRACK = 16;

function isContinuation(b: number): boolean {
  return (b & 0xc0) === 0x80;
}

/** Backslashes right before `p` (stopping at `lo`). */
function backslashesBefore(span: Buffer, p: number, lo: number): number {
  let k = 0;
  while (p - k - 1 >= lo && span[p - k - 1] === BACKSLASH) k++;
  return k;
}

/**
 * A cut at or a few bytes before `p` that splits neither a UTF-8 character nor an escape (`\n`,
 * `\\`, `\u00e9`), so each side is valid JSON string content on its own; -1 when there is none
 * near (invalid UTF-8).
 */
function safeCut(span: Buffer, p: number, lo: number): number {
  const from = p;
  while (p > lo && isContinuation(span[p]!)) p--;
  for (;;) {
    if (p <= lo || from - p > MAX_BACKTRACK) return -1;
    // an odd run of backslashes right before p: the last one starts an escape that p would split
    if (backslashesBefore(span, p, lo) % 2 === 1) {
      p--;
      continue;
    }
    // inside the four hex digits of a \uXXXX: cut before its backslash
    let inside = -1;
    for (let q = Math.max(lo, p - 5); q <= p - 2; q++) {
      if (span[q] === BACKSLASH && span[q + 1] === U && backslashesBefore(span, q, lo) % 2 === 0) inside = q;
    }
    if (inside === -1) return p;
    p = inside;
  }
}

/**
 * The string that the JSON string token span[start, end) spells (quotes included), as a rope when
 * it is longer than one piece; undefined when it cannot be cut safely (the caller decodes it
 * whole). `escaped`: it holds a backslash. The caller has checked that the bytes are UTF-8 and,
 * for an unescaped token, that none is a control character; JSON.parse checks escaped pieces.
 */
export function decodeTokenAsRope(span: Buffer, start: number, end: number, escaped: boolean, pieceBytes = PIECE_BYTES): string | undefined {
  const lo = start + 1;
  const hi = end - 1;
  let out = '';
  let at = lo;
  while (at < hi) {
    let cut = hi;
    if (hi - at > pieceBytes) {
      cut = safeCut(span, at + pieceBytes, at);
      if (cut === -1) return undefined;
    }
    const piece = span.toString('utf8', at, cut);
    out += escaped ? (JSON.parse(`"${piece}"`) as string) : piece;
    at = cut;
  }
  return out;
}
