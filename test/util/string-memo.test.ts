import { describe, expect, it } from 'vitest';
import { memoByString } from '../../src/util/string-memo.js';

describe('memoByString', () => {
  it('runs the function once per distinct string and answers as it did', () => {
    const asked: string[] = [];
    const isGemini = memoByString((s) => (asked.push(s), /gemini/i.test(s)));
    expect([isGemini('gemini-2.5-pro'), isGemini('gpt-5'), isGemini('gemini-2.5-pro'), isGemini('gpt-5'), isGemini('Gemini-3')]).toEqual([true, false, true, false, true]);
    expect(asked).toEqual(['gemini-2.5-pro', 'gpt-5', 'Gemini-3']);
  });

  it('keeps at most maxEntries strings, and never a string longer than maxLength', () => {
    const asked: string[] = [];
    const test = memoByString((s) => (asked.push(s), s.startsWith('a')), 2, 8);
    test('a1');
    test('b2');
    test('a3'); // full: the memory starts over with this one
    test('a3');
    test('a1');
    expect(asked).toEqual(['a1', 'b2', 'a3', 'a1']);
    const long = 'a'.repeat(9);
    expect([test(long), test(long)]).toEqual([true, true]);
    expect(asked.filter((s) => s === long)).toHaveLength(2);
  });

  it('hands out the same answer object, and remembers nothing of a call that threw', () => {
    let calls = 0;
    const split = memoByString((s) => {
      calls++;
      if (!s.includes(':')) throw new Error('no colon');
      return { head: s.slice(0, s.indexOf(':')) };
    });
    expect(split('a:b')).toBe(split('a:b'));
    expect(() => split('ab')).toThrow('no colon');
    expect(() => split('ab')).toThrow('no colon');
    expect(calls).toBe(3);
  });
});
