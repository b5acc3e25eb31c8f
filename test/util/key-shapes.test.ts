import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BEARER_RE, KEY_HINT_RE, KEY_PATTERNS } from '../../src/util/key-shapes.js';

describe('KEY_HINT_RE', () => {
  it('is found in every text a key pattern matches (the log masks only texts it is found in)', () => {
    const alnum = fc.stringMatching(/^[A-Za-z0-9_-]{40}$/);
    const keys = fc.oneof(
      alnum.map((s) => `sk-${s}`),
      alnum.map((s) => `AIza${s.slice(0, 35)}`),
      alnum.map((s) => `gsk_${s.replace(/[_-]/g, 'x')}`),
      alnum.map((s) => `xai-${s.replace(/[_-]/g, 'x')}`),
      alnum.map((s) => `BeArEr ${s}`),
      alnum.map((s) => `basic ${s}`),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), keys, fc.string({ maxLength: 8 }), (before, key, after) => {
        const text = `${before} ${key} ${after}`;
        const matched = [...KEY_PATTERNS, BEARER_RE].some((re) => {
          re.lastIndex = 0;
          return re.test(text);
        });
        if (matched) expect(KEY_HINT_RE.test(text)).toBe(true);
      }),
    );
    expect(KEY_HINT_RE.test('bencha/bench-model')).toBe(false);
    expect(KEY_HINT_RE.test('/protocol-a/v1/chat/completions')).toBe(false);
  });
});

describe('where KEY_PATTERNS let a key start', () => {
  const keys = ['sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz', `AIza${'B'.repeat(35)}`, 'gsk_AbCdEfGhIjKlMnOpQrStUv', 'xai-AbCdEfGhIjKlMnOpQrStUv'];
  const found = (text: string): string[] =>
    KEY_PATTERNS.flatMap((re) => {
      re.lastIndex = 0;
      return text.match(re) ?? [];
    });

  it('right after a \\uXXXX escape, whose last character is a hex digit: \\u000a, \\u0022, upper-case hex', () => {
    for (const key of keys) {
      for (const escape of ['\\u000a', '\\u0022', '\\u000A', '\\u003c', '\\u00e9', '\\n', '\\t', '%0A', '%20', '%2F']) {
        expect(found(`{"note":"line one${escape}${key}"}`), `${escape}${key}`).toEqual([key]);
      }
    }
  });

  it('not inside a word, also when an escape comes before the word', () => {
    for (const key of keys) {
      for (const before of ['abc', 'task', 'x\\u0022abc', '\\u000aabc', '%20abc', '%2Fabc', '\\u00', 'u0022']) {
        expect(found(`{"note":"${before}${key}"}`), `${before}${key}`).toEqual([]);
      }
    }
  });
});

describe('KEY_PATTERNS, the prefix searched for first', () => {
  it('match what a boundary test in front of the prefix matches', () => {
    // the same shapes with the start tested before the prefix, as a plain reading of the rule
    const start = String.raw`(?:\b|(?<=\\[bfnrt]|\\u[0-9A-Fa-f]{4}|%[0-9A-Fa-f]{2}))`;
    const shapes = [String.raw`sk-[A-Za-z0-9_-]{16,}`, String.raw`AIza[0-9A-Za-z_-]{35}\b`, String.raw`gsk_[A-Za-z0-9]{20,}`, String.raw`xai-[A-Za-z0-9]{20,}`];
    const reference = shapes.map((shape) => new RegExp(start + shape, 'g'));
    const pieces = fc.constantFrom('sk-', 'AIza', 'gsk_', 'xai-', '\\u0022', '\\u00', '\\n', '\\', '%2F', '%2', 'a', 'Z', '9', '_', '-', ' ', '"', 'é', 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        KEY_PATTERNS.forEach((re, i) => expect(text.match(re), text).toEqual(text.match(reference[i]!)));
      }),
      { numRuns: 3000 },
    );
  });
});
