import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isEnvelope, originOfOpaque, packOrigin, reasoningOfThinkingBlock, unpackOrigin } from '../../src/protocols/reasoning-envelope.js';
import type { ReasoningOrigin } from '../../src/protocols/hub.js';

describe('reasoning envelope', () => {
  const origins: ReasoningOrigin[] = [
    { kind: 'anthropic', signature: 'EqQBCkgIARAB…sig' },
    { kind: 'anthropic_redacted', data: 'opaque-data' },
    { kind: 'openai', id: 'rs_01', encryptedContent: 'gAAAAB-encrypted' },
    { kind: 'openrouter', details: [{ type: 'reasoning.text', text: 'hm', signature: 's', format: 'anthropic-claude-v1', index: 0 }] },
    { kind: 'unsigned' },
    { kind: 'unsigned', text: 'Reasoning shown without its text.' },
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

  it('a thinking block read back: unsigned text from the envelope when the block shows none, never kept in the origin', () => {
    const packed = packOrigin({ kind: 'unsigned', text: 'kept back' });
    expect(reasoningOfThinkingBlock('', packed)).toEqual({ type: 'reasoning', text: 'kept back', origin: { kind: 'unsigned' } });
    expect(reasoningOfThinkingBlock('own', packed)).toEqual({ type: 'reasoning', text: 'own', origin: { kind: 'unsigned' } });
    expect(reasoningOfThinkingBlock('plain', '')).toEqual({ type: 'reasoning', text: 'plain', origin: { kind: 'unsigned' } });
    expect(reasoningOfThinkingBlock('', 'EqQBnative')).toEqual({ type: 'reasoning', text: '', origin: { kind: 'anthropic', signature: 'EqQBnative' } });
    const openai = { kind: 'openai' as const, id: 'rs_1', encryptedContent: 'e' };
    expect(reasoningOfThinkingBlock('', packOrigin(openai))).toEqual({ type: 'reasoning', text: '', origin: openai });
    // a text that is not a string makes the envelope invalid: unsigned, nothing restored
    const bad = 'svcp1.' + Buffer.from(JSON.stringify({ kind: 'unsigned', text: 42 })).toString('base64url');
    expect(reasoningOfThinkingBlock('', bad)).toEqual({ type: 'reasoning', text: '', origin: { kind: 'unsigned' } });
  });
});
