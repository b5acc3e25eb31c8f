import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isEnvelope, originOfOpaque, packOrigin, unpackOrigin } from '../../src/protocols/reasoning-envelope.js';
import type { ReasoningOrigin } from '../../src/protocols/hub.js';

describe('reasoning envelope', () => {
  const origins: ReasoningOrigin[] = [
    { kind: 'anthropic', signature: 'EqQBCkgIARAB…sig' },
    { kind: 'anthropic_redacted', data: 'opaque-data' },
    { kind: 'openai', id: 'rs_01', encryptedContent: 'gAAAAB-encrypted' },
    { kind: 'openrouter', details: [{ type: 'reasoning.text', text: 'hm', signature: 's', format: 'anthropic-claude-v1', index: 0 }] },
    { kind: 'unsigned' },
  ];

  it('round-trips every origin kind', () => {
    for (const o of origins) {
      const packed = packOrigin(o);
      expect(isEnvelope(packed)).toBe(true);
      expect(unpackOrigin(packed)).toEqual(o);
    }
  });

  it('treats native values and damaged envelopes as not ours', () => {
    expect(unpackOrigin('EqQBCkgIARAB')).toBeUndefined();
    expect(unpackOrigin('svcp1.!!!not-base64')).toBeUndefined();
    expect(unpackOrigin('svcp1.' + Buffer.from('{"kind":"openai"}').toString('base64url'))).toBeUndefined();
    expect(unpackOrigin('svcp1.' + Buffer.from('{"kind":"mystery"}').toString('base64url'))).toBeUndefined();
  });

  it('an opaque value proves its envelope\'s origin, the native one without our prefix, and nothing when damaged', () => {
    const native = (value: string) => () => ({ kind: 'anthropic' as const, signature: value });
    for (const o of origins) expect(originOfOpaque(packOrigin(o), native('x'))).toEqual(o);
    expect(originOfOpaque('EqQBCkgIARAB', native('EqQBCkgIARAB'))).toEqual({ kind: 'anthropic', signature: 'EqQBCkgIARAB' });
    // cut short or edited: never handed to the provider as if it were its own value
    const cut = packOrigin(origins[0]!).slice(0, 20);
    for (const damaged of ['svcp1.', 'svcp1.!!!not-base64', cut, 'svcp1.' + Buffer.from('{"kind":"mystery"}').toString('base64url')]) {
      expect(originOfOpaque(damaged, native(damaged))).toEqual({ kind: 'unsigned' });
    }
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(fc.property(fc.string(), (s) => void unpackOrigin('svcp1.' + s)), { numRuns: 500 });
  });
});
