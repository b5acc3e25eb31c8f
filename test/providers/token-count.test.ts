import { describe, expect, it } from 'vitest';
import { tokenCount } from '../../src/providers/token-count.js';

describe('tokenCount: the one reading of a stated window, output limit or loaded context', () => {
  it('a positive whole number is the count', () => {
    expect(tokenCount(1)).toBe(1);
    expect(tokenCount(1_048_576)).toBe(1_048_576);
  });

  it('anything else says nothing: zero, negative, fraction, past 2^53, not finite, a numeric string, null', () => {
    for (const v of [0, -1, 8192.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '8192', null, undefined]) expect(tokenCount(v), String(v)).toBeUndefined();
  });
});
