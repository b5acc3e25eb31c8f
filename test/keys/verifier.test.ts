import { describe, expect, it } from 'vitest';
import type { ServiceKeyRecord } from '../../src/config/schema.js';
import { displayPrefix, generateServiceKey, hashServiceKey } from '../../src/keys/format.js';
import { KeyVerifier } from '../../src/keys/verifier.js';

function record(id: string, key: string, revoked: string | null = null): ServiceKeyRecord {
  return { id, name: `name-${id}`, hash: hashServiceKey(key), prefix: displayPrefix(key), created: new Date().toISOString(), lastUsed: null, revoked };
}

describe('KeyVerifier', () => {
  const good = generateServiceKey();
  const revoked = generateServiceKey();

  it('accepts active keys and refuses unknown, revoked, empty and oversized ones', () => {
    const v = new KeyVerifier([record('a', good), record('b', revoked, new Date().toISOString())]);
    expect(v.verify(good)).toMatchObject({ id: 'a', name: 'name-a' });
    expect(v.verify(revoked)).toBeUndefined();
    expect(v.verify(generateServiceKey())).toBeUndefined();
    expect(v.verify('')).toBeUndefined();
    expect(v.verify(good + 'x')).toBeUndefined();
    expect(v.verify('x'.repeat(10_000))).toBeUndefined();
    expect(v.verify(`${good} `)).toBeUndefined();
  });

  it('takes a revoke into account as soon as the key set is reloaded', () => {
    const v = new KeyVerifier([record('a', good)]);
    expect(v.verify(good)).toBeDefined();
    v.load([record('a', good, new Date().toISOString())]);
    expect(v.verify(good)).toBeUndefined();
  });

  it('collects last-used times in memory and hands them out once', () => {
    const v = new KeyVerifier([record('a', good)]);
    const before = Date.now();
    v.verify(good);
    expect(v.pendingLastUsed('a')).toBeGreaterThanOrEqual(before);
    const batch = v.takeLastUsed();
    expect([...batch.keys()]).toEqual(['a']);
    expect(v.takeLastUsed().size).toBe(0);
    expect(v.pendingLastUsed('a')).toBeUndefined();
  });

  it('puts back a failed batch without overwriting newer uses', () => {
    const v = new KeyVerifier([record('a', good)]);
    v.restoreLastUsed(new Map([['a', 1000]]));
    expect(v.pendingLastUsed('a')).toBe(1000);
    v.verify(good);
    const newer = v.pendingLastUsed('a') as number;
    v.restoreLastUsed(new Map([['a', 1000]]));
    expect(v.pendingLastUsed('a')).toBe(newer);
  });
});
