/**
 * Edit a parsed JSON request body and serialise it again, reusing the client's raw bytes for
 * every top-level member the edit left alone.
 *
 * A passthrough body changes in a few small fields (`model`, effort, maybe tool schemas), while
 * its bulk (`messages`, `input`, `system`) is untouched: re-serialising and re-encoding 300 KB
 * costs ~1 ms per request and can change numbers' spelling. Here the edit runs on a proxy that
 * records which top-level members it wrote to (at any depth); those are serialised, the others
 * are copied from the raw bytes. Only bodies whose top level is provably simple are spliced (no
 * escaped or duplicate keys); anything else takes the plain parse-edit-stringify path.
 */

type Obj = Record<string, unknown>;

/** Below this size, JSON.stringify is cheaper than scanning. */
export const SPLICE_MIN_BYTES = 16 * 1024;

export interface TopLevelMember {
  key: string;
  /** Offset of the key's opening quote. */
  start: number;
  /** Offset just past the value. */
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function skipWs(raw: Buffer, i: number): number {
  const n = raw.length;
  while (i < n) {
    const c = raw[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else break;
  }
  return i;
}

/** Offset just past the string starting at `i` (an opening quote), or -1. */
function stringEnd(raw: Buffer, i: number): number {
  const n = raw.length;
  let j = i + 1;
  // short strings: a plain loop beats a native call
  const stop = Math.min(n, j + 48);
  while (j < stop) {
    const c = raw[j];
    if (c === QUOTE) return j + 1;
    j += c === BACKSLASH ? 2 : 1;
  }
  for (;;) {
    const q = raw.indexOf(QUOTE, j);
    if (q === -1) return -1;
    let k = q - 1;
    let slashes = 0;
    while (k >= j && raw[k] === BACKSLASH) {
      slashes++;
      k--;
    }
    // j is never inside an escape: backslashes from j on pair up from there
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function valueEnd(raw: Buffer, i: number): number {
  const n = raw.length;
  const c = raw[i];
  if (c === QUOTE) return stringEnd(raw, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    let j = i;
    while (j < n) {
      const b = raw[j];
      if (b === QUOTE) {
        j = stringEnd(raw, j);
        if (j === -1) return -1;
        continue;
      }
      if (b === 0x7b || b === 0x5b) depth++;
      else if (b === 0x7d || b === 0x5d) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  let j = i;
  while (j < n) {
    const b = raw[j];
    if (b === 0x2c || b === 0x7d || b === 0x5d || b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) break;
    j++;
  }
  return j > i ? j : -1;
}

/**
 * The members of a top-level JSON object with their byte spans, or undefined when the layout is
 * not provably plain (escaped or duplicate keys, not an object). Assumes `raw` is valid JSON.
 */
export function scanTopLevelMembers(raw: Buffer): TopLevelMember[] | undefined {
  const n = raw.length;
  let i = skipWs(raw, 0);
  if (raw[i] !== 0x7b) return undefined;
  i = skipWs(raw, i + 1);
  const members: TopLevelMember[] = [];
  const seen = new Set<string>();
  if (raw[i] === 0x7d) return skipWs(raw, i + 1) === n ? members : undefined;
  for (;;) {
    if (raw[i] !== QUOTE) return undefined;
    const start = i;
    const keyEnd = stringEnd(raw, i);
    if (keyEnd === -1) return undefined;
    const slash = raw.indexOf(BACKSLASH, start + 1);
    if (slash !== -1 && slash < keyEnd - 1) return undefined;
    const key = raw.toString('utf8', start + 1, keyEnd - 1);
    if (seen.has(key)) return undefined;
    seen.add(key);
    i = skipWs(raw, keyEnd);
    if (raw[i] !== 0x3a) return undefined;
    i = skipWs(raw, i + 1);
    const end = valueEnd(raw, i);
    if (end === -1) return undefined;
    members.push({ key, start, end });
    i = skipWs(raw, end);
    if (raw[i] === 0x2c) {
      i = skipWs(raw, i + 1);
      continue;
    }
    if (raw[i] === 0x7d) break;
    return undefined;
  }
  return skipWs(raw, i + 1) === n ? members : undefined;
}

/** A proxy over `root` that records which top-level members were written to, at any depth. */
export function trackWrites(root: Obj): { proxy: Obj; dirty: Set<string> } {
  const dirty = new Set<string>();
  const proxies = new WeakMap<object, object>();
  const handlers = new Map<string, ProxyHandler<object>>();

  const wrap = (value: unknown, member: string): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    let p = proxies.get(value);
    if (p) return p;
    let h = handlers.get(member);
    if (!h) {
      h = writeHandler(() => dirty.add(member), (v) => wrap(v, member));
      handlers.set(member, h);
    }
    p = new Proxy(value, h);
    proxies.set(value, p);
    return p;
  };

  const rootHandler: ProxyHandler<Obj> = {
    get: (t, p) => (typeof p === 'string' ? wrap(t[p], p) : Reflect.get(t, p)),
    set: (t, p, v) => {
      dirty.add(String(p));
      return Reflect.set(t, p, v);
    },
    deleteProperty: (t, p) => {
      dirty.add(String(p));
      return Reflect.deleteProperty(t, p);
    },
    defineProperty: (t, p, d) => {
      dirty.add(String(p));
      return Reflect.defineProperty(t, p, d);
    },
  };
  return { proxy: new Proxy(root, rootHandler), dirty };
}

function writeHandler(markDirty: () => void, wrap: (v: unknown) => unknown): ProxyHandler<object> {
  return {
    get: (t, p) => wrap(Reflect.get(t, p)),
    set: (t, p, v) => {
      markDirty();
      return Reflect.set(t, p, v);
    },
    deleteProperty: (t, p) => {
      markDirty();
      return Reflect.deleteProperty(t, p);
    },
    defineProperty: (t, p, d) => {
      markDirty();
      return Reflect.defineProperty(t, p, d);
    },
    setPrototypeOf: (t, proto) => {
      markDirty();
      return Reflect.setPrototypeOf(t, proto);
    },
  };
}

const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');
const COMMA = Buffer.from(',');

/** Serialise `body` (already edited) reusing raw member bytes for members not in `dirty`. */
export function spliceMembers(raw: Buffer, members: TopLevelMember[], body: Obj, dirty: Set<string>): Buffer {
  const parts: Buffer[] = [OPEN];
  let first = true;
  const push = (piece: Buffer): void => {
    if (!first) parts.push(COMMA);
    parts.push(piece);
    first = false;
  };
  const known = new Set<string>();
  for (const m of members) {
    known.add(m.key);
    if (!Object.prototype.hasOwnProperty.call(body, m.key)) continue;
    if (!dirty.has(m.key)) {
      push(raw.subarray(m.start, m.end));
      continue;
    }
    const json = JSON.stringify(body[m.key]);
    if (json !== undefined) push(Buffer.from(`${JSON.stringify(m.key)}:${json}`));
  }
  for (const key of Object.keys(body)) {
    if (known.has(key)) continue;
    const json = JSON.stringify(body[key]);
    if (json !== undefined) push(Buffer.from(`${JSON.stringify(key)}:${json}`));
  }
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

/**
 * Run `edit` on the body and serialise the result. `parsed` must be JSON.parse(raw) and is
 * edited in place (and must not be reused afterwards); `reparse` gives a pristine copy should the
 * tracked edit fail (something in it refused a proxy), and the edit is then run again plainly.
 */
export function editJsonBody<T>(raw: Buffer, parsed: Obj, reparse: () => Obj, edit: (body: Obj) => T): { bytes: Buffer | string; result: T } {
  if (raw.length >= SPLICE_MIN_BYTES) {
    const members = scanTopLevelMembers(raw);
    if (members) {
      const { proxy, dirty } = trackWrites(parsed);
      let result: T;
      try {
        result = edit(proxy);
      } catch {
        const fresh = reparse();
        const plain = edit(fresh);
        return { bytes: JSON.stringify(fresh), result: plain };
      }
      return { bytes: spliceMembers(raw, members, parsed, dirty), result };
    }
  }
  const result = edit(parsed);
  return { bytes: JSON.stringify(parsed), result };
}
