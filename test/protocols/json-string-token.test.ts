/**
 * stringTokenValue must agree with JSON.parse on every input: the same string for a token that
 * spells one, undefined for anything else (a non-string value, two tokens, broken JSON).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringTokenValue } from '../../src/protocols/json-string-token.js';

/** JSON.parse's reading of a token that is exactly one JSON value (no whitespace around it, as a cut-out token never has). */
function viaJsonParse(token: string): string | undefined {
  if (token.trim() !== token) return undefined;
  try {
    const v: unknown = JSON.parse(token);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

describe('stringTokenValue', () => {
  it('reads every string as JSON.stringify spells it, short and long (escapes, controls, lone surrogates)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), (text) => {
        expect(stringTokenValue(JSON.stringify(text))).toBe(text);
      }),
      { numRuns: 1_000 },
    );
    expect(stringTokenValue('""')).toBe('');
    expect(stringTokenValue('"tok12 "')).toBe('tok12 ');
    expect(stringTokenValue('"\\u00e9\\n"')).toBe('é\n');
  });

  it('never disagrees with JSON.parse on near misses', () => {
    const alphabet = fc.constantFrom('"', '\\', 'a', ' ', '\n', '\t', '\u0001', 'é', 'u', '0', ',', ':', '}', '\ud83c');
    const near = fc.oneof(
      fc.string(),
      fc.array(alphabet, { maxLength: 12 }).map((cs) => `"${cs.join('')}"`),
      fc.array(alphabet, { maxLength: 80 }).map((cs) => `"${cs.join('')}"`),
      fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${JSON.stringify(a)},${JSON.stringify(b)}`),
    );
    // whitespace around a token: JSON.parse reads through it, a cut-out token never has any
    const spaced = fc.tuple(near, fc.constantFrom(' ', '\n', '\t', '\r'), fc.boolean()).map(([t, ws, before]) => (before ? ws + t : t + ws));
    fc.assert(
      fc.property(fc.oneof(near, spaced), (token) => {
        expect(stringTokenValue(token)).toBe(viaJsonParse(token));
      }),
      { numRuns: 3_000 },
    );
    for (const bad of ['"', "'a'", '"a', 'a"', '"a"b"', '"a" ', ' "a"', '"a\tb"', '"a\\"', '1', 'null', '["a"]', '"a","b"']) {
      expect(stringTokenValue(bad), bad).toBeUndefined();
    }
  });
});
