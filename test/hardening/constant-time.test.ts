/**
 * Secrets are compared in constant time. The admin token check goes through crypto's
 * timingSafeEqual (on SHA-256 digests, so lengths are equal); service keys are looked up by their
 * SHA-256 digest and the candidate confirmed by a compare that reads every character whatever the
 * input — counted here rather than timed, so the test is exact on a busy machine.
 */
import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { lastCharChanged } from './helpers.js';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const { createAdminApp } = await import('../../src/server/admin/index.js');
const { constantTimeEqual, KeyVerifier } = await import('../../src/keys/verifier.js');
const { generateServiceKey, hashServiceKey, displayPrefix } = await import('../../src/keys/format.js');
type AdminContext = import('../../src/server/admin/context.js').AdminContext;

/** A string whose charCodeAt calls are counted (constantTimeEqual takes any string-like). */
class CountingString extends String {
  reads = 0;
  override charCodeAt(i: number): number {
    this.reads++;
    return super.charCodeAt(i);
  }
}

describe('constant-time comparisons', () => {
  it('the admin token is checked with crypto.timingSafeEqual on equal-length digests', async () => {
    const token = 'admin-token-for-the-test-0123456789';
    const app = await createAdminApp({} as AdminContext, { adminToken: token, report: () => undefined });
    const spy = vi.mocked(crypto.timingSafeEqual);
    spy.mockClear();
    for (const presented of ['x', `${token}x`, token.slice(0, -1), 'a'.repeat(10_000)]) {
      const res = await app.request('/admin/anything', { headers: { authorization: `Bearer ${presented}` } });
      expect(res.status).toBe(401);
    }
    expect(spy).toHaveBeenCalledTimes(4);
    for (const [a, b] of spy.mock.calls) {
      expect((a as Buffer).length).toBe(32);
      expect((b as Buffer).length).toBe(32);
    }
  });

  it('the service-key compare reads every character, wherever the first difference is', () => {
    const a = 'f'.repeat(64);
    for (const b of ['0' + 'f'.repeat(63), 'f'.repeat(63) + '0', 'f'.repeat(64), '0'.repeat(64)]) {
      const left = new CountingString(a);
      const right = new CountingString(b);
      const equal = constantTimeEqual(left as unknown as string, right as unknown as string);
      expect(equal).toBe(a === b);
      expect(left.reads).toBe(64);
      expect(right.reads).toBe(64);
    }
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });

  it('the verifier accepts a key only through its digest: no stored key material, revoked keys refused', () => {
    const key = generateServiceKey();
    const rec = { id: 'k1', name: 'n', hash: hashServiceKey(key), prefix: displayPrefix(key), created: '', lastUsed: null, revoked: null };
    const v = new KeyVerifier([rec]);
    expect(v.verify(key)).toMatchObject({ id: 'k1' });
    expect(v.verify(lastCharChanged(key))).toBeUndefined();
    expect(v.verify(key.repeat(20))).toBeUndefined();
    expect(JSON.stringify([...(v as unknown as { byHash: Map<string, unknown> }).byHash.values()])).not.toContain(key);
    v.load([{ ...rec, revoked: '2026-01-01T00:00:00Z' }]);
    expect(v.verify(key)).toBeUndefined();
  });
});
