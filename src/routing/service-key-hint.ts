/**
 * Does a network read hold `sk-svc` (the start of a service key's prefix) anywhere? Asked of every
 * read of a passthrough stream, so it is kept cheap: a Buffer needle costs ~100+ ns per read on
 * Node 20, a byte search (memchr) a fraction of that. It searches for `v`, rare in the SSE framing
 * of all three dialects (Messages' and Responses' `event:` put it at index 1, before any hit could
 * be), and looks around each hit for the rest.
 */
const S = 0x73;
const K = 0x6b;
const DASH = 0x2d;
const V = 0x76;
const C = 0x63;
/** Where `v` stands in `sk-svc`: no earlier `v` ends one. */
const V_AT = 4;

export function holdsServiceKeyHint(chunk: Buffer): boolean {
  let v = chunk.indexOf(V, V_AT);
  while (v !== -1) {
    if (chunk[v + 1] === C && chunk[v - 1] === S && chunk[v - 2] === DASH && chunk[v - 3] === K && chunk[v - 4] === S) return true;
    v = chunk.indexOf(V, v + 1);
  }
  return false;
}
