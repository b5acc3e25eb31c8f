/**
 * Whether two values built by the same code share V8's hidden classes ("maps"), object by object.
 * An object whose map is new on every call costs the call that makes it a map allocation (on Node
 * 20, 2–10 µs for a spread copy that then gains keys), leaves old-space garbage for the full
 * collector, and makes every later read of it (JSON.stringify, the codecs) a slow lookup.
 */
import { setFlagsFromString } from 'node:v8';

// %HaveSameMap is V8's own intrinsic: the flag lets code compiled after it use one
setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Paths (`$.usage`, `$.content[0]`) of the objects whose maps differ between `a` and `b`, built alike. */
export function mapsNotShared(a: unknown, b: unknown, path = '$', out: string[] = []): string[] {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return out;
  if (!haveSameMap(a, b)) out.push(path);
  if (Array.isArray(a)) a.forEach((item, i) => mapsNotShared(item, (b as unknown[])[i], `${path}[${i}]`, out));
  else for (const key of Object.keys(a)) mapsNotShared((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`, out);
  return out;
}

/**
 * `build()` called until its maps have settled, then the paths whose maps differ between every one
 * of three pairs of calls: a map made anew once (an inline cache reset by a collection or a
 * deoptimisation in between) is not what this looks for, a map made on every call is.
 */
export function mapsNewPerCall(build: () => unknown): string[] {
  for (let i = 0; i < 20; i++) build();
  let paths = mapsNotShared(build(), build());
  for (let pair = 1; pair < 3 && paths.length > 0; pair++) {
    const again = new Set(mapsNotShared(build(), build()));
    paths = paths.filter((p) => again.has(p));
  }
  return paths;
}
