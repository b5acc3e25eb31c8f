import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KEY_PREFIX, displayPrefix, generateServiceKey, hashServiceKey, newKeyId, randomBase62 } from '../../src/keys/format.js';

describe('service key format', () => {
  it('is sk-svc-proxy- followed by 43 base62 characters (at least 32 bytes of randomness)', () => {
    for (let i = 0; i < 50; i++) {
      const key = generateServiceKey();
      expect(key).toMatch(/^sk-svc-proxy-[0-9A-Za-z]{43}$/);
      // 43 base62 characters carry log2(62)*43 ≈ 256 bits.
      expect(Math.log2(62) * (key.length - KEY_PREFIX.length)).toBeGreaterThanOrEqual(256);
    }
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 2000 }, generateServiceKey));
    expect(keys.size).toBe(2000);
  });

  it('uses every base62 character about equally often', () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62 * 400);
    for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(250);
      expect(n).toBeLessThan(560);
    }
  });

  it('hashes with SHA-256 (hex) and shows only a short prefix', () => {
    const key = generateServiceKey();
    expect(hashServiceKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(displayPrefix(key)).toBe(key.slice(0, KEY_PREFIX.length + 4));
    expect(displayPrefix(key).length).toBeLessThan(key.length / 2);
  });

  it('makes ids that are not keys', () => {
    expect(newKeyId()).toMatch(/^key_[0-9A-Za-z]{10}$/);
  });
});
