import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isEnvelope, packOrigin, unpackOrigin } from '../../src/protocols/reasoning-envelope.js';
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

  it('never throws on arbitrary strings', () => {
    fc.assert(fc.property(fc.string(), (s) => void unpackOrigin('svcp1.' + s)), { numRuns: 500 });
  });
});
