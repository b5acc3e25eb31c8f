/**
 * Copying a parsed JSON object's members one by one, to add keys to the copy after. On Node 20 a
 * copy that gains a key as `{...o, k}` gets a hidden class of its own on every call (bench/FINDINGS.md);
 * a copy built key by key shares its shape with every other copy of the same keys. Plain assignment of
 * a member named "__proto__" (JSON.parse makes it an ordinary own key) would set the copy's prototype
 * and drop the member, so that one key is defined instead.
 */

/** Sets `key` as an own member, "__proto__" included. */
export function setMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** A shallow copy of `source`'s own enumerable members, in their order. */
export function copyMembers<T extends object>(source: T): T {
  const from = source as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(from)) setMember(out, key, from[key]);
  return out as T;
}
