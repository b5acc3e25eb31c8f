/**
 * Where a service key may begin at the end of a piece of a stream (a network read, a delta) and go
 * on in the next piece. SERVICE_KEY_RE (util/key-shapes.ts) wants the prefix and then 16 or more
 * base62 characters, as many as follow: so a piece may end inside the prefix ("…sk-sv"), or in
 * the run after a whole prefix, which the next piece may lengthen. Either end is kept back until
 * the next piece shows how it goes on; anything else may go at once.
 */
import { SERVICE_KEY_PREFIX } from '../util/key-shapes.js';

const PREFIX = SERVICE_KEY_PREFIX;

/**
 * A run this long after the prefix holds a whole key (43 characters: keys/format.ts) and is masked
 * as it goes out; what of it still follows is no part of a key, and is not waited for.
 */
export const HELD_RUN_LIMIT = 64;

/** Base62: what follows the prefix in a key. */
function isBase62(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Each proper start of the prefix, by the code of its last character (at most two share one: `sk-` and `sk-svc-`, `s` and `sk-s`). */
const PARTIALS_BY_LAST: ReadonlyArray<readonly string[] | undefined> = (() => {
  const byLast: string[][] = [];
  for (let k = PREFIX.length - 1; k > 0; k--) {
    const partial = PREFIX.slice(0, k);
    (byLast[partial.charCodeAt(k - 1)] ??= []).push(partial);
  }
  return byLast;
})();

/** The last character of a piece that may end inside the prefix with no `sk-svc` in it: `s`, `sk`, `sk-`, `sk-s`, `sk-sv`. */
export function mayEndInShortPrefix(c: number): boolean {
  return c === 0x73 || c === 0x6b || c === 0x2d || c === 0x76;
}

/** Where `text`, ending in the character `last`, ends in a proper start of the prefix (the longest: `sk-s` rather than its last `s`), or -1. */
function partialPrefixStart(text: string, last: number): number {
  const partials = PARTIALS_BY_LAST[last];
  if (partials !== undefined) for (const partial of partials) if (text.endsWith(partial)) return text.length - partial.length;
  return -1;
}

/**
 * The index from which `text`'s end may be the start of a service key that the next piece
 * completes or lengthens, or -1. Costs a look at the last character, a look-up by it, at most two
 * short comparisons and a scan of the trailing base62 run.
 */
export function serviceKeyTailStart(text: string): number {
  const last = text.charCodeAt(text.length - 1);
  // a key's start ends in its prefix (`-`) or its run
  if (last !== 0x2d && !isBase62(last)) return -1;
  const partial = partialPrefixStart(text, last);
  // the base62 run before the end (or before a partial prefix there: `sk` would lengthen it unless
  // a new key follows) may be that of a whole prefix
  const end = partial === -1 ? text.length : partial;
  let run = end;
  while (run > 0 && isBase62(text.charCodeAt(run - 1))) run--;
  const at = run - PREFIX.length;
  if (at >= 0 && text.charCodeAt(run - 1) === 0x2d && end - run < HELD_RUN_LIMIT && text.startsWith(PREFIX, at)) return at;
  return partial;
}
