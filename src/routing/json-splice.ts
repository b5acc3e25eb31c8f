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

import { scanTopLevelMembers, type TopLevelMember } from '../protocols/json-members.js';
import { verbatimStringsOf } from '../protocols/lazy-json.js';
import { stringifyKeepingStrings } from '../protocols/verbatim-strings.js';

type Obj = Record<string, unknown>;

/** Below this size, JSON.stringify is cheaper than scanning. */
export const SPLICE_MIN_BYTES = 16 * 1024;

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
  const push = (...pieces: Buffer[]): void => {
    if (!first) parts.push(COMMA);
    parts.push(...pieces);
    first = false;
  };
  // a member that was read and then edited still holds the client's long strings
  const kept = verbatimStringsOf(body);
  const pushSerialised = (key: string): void => {
    const json = stringifyKeepingStrings(body[key], kept);
    if (typeof json === 'string') push(Buffer.from(`${JSON.stringify(key)}:${json}`));
    else if (json !== undefined) push(Buffer.from(`${JSON.stringify(key)}:`), json);
  };
  const known = new Set<string>();
  for (const m of members) {
    known.add(m.key);
    if (!Object.prototype.hasOwnProperty.call(body, m.key)) continue;
    if (dirty.has(m.key)) pushSerialised(m.key);
    else push(raw.subarray(m.start, m.end));
  }
  for (const key of Object.keys(body)) if (!known.has(key)) pushSerialised(key);
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

/**
 * Run `edit` on the body and serialise the result. `parsed` must be raw's content (parsed whole,
 * or lazily by protocols/lazy-json.ts) and is edited in place (and must not be reused afterwards);
 * `reparse` gives a pristine copy should the tracked edit fail (something in it refused a proxy),
 * and the edit is then run again plainly. `scanned`: raw's members, when the caller has them.
 */
export function editJsonBody<T>(
  raw: Buffer,
  parsed: Obj,
  reparse: () => Obj,
  edit: (body: Obj) => T,
  scanned?: TopLevelMember[],
): { bytes: Buffer | string; result: T } {
  if (raw.length >= SPLICE_MIN_BYTES) {
    const members = scanned ?? scanTopLevelMembers(raw);
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
