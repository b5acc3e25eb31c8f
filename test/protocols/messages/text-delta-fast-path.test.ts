/**
 * The text-delta fast path of the Messages stream decoder must agree with the full JSON parse on
 * every input: exact for Anthropic's own spelling, and `undefined` (full parse) for anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTextDelta } from '../../../src/protocols/messages/stream-decode.js';

/** What the full parse makes of `data` when it is a text delta, else undefined. */
function viaFullParse(data: string): { index: number; text: string } | undefined {
  try {
    const v = JSON.parse(data) as { type?: unknown; index?: unknown; delta?: { type?: unknown; text?: unknown } };
    if (v?.type === 'content_block_delta' && typeof v.index === 'number' && v.delta?.type === 'text_delta' && typeof v.delta.text === 'string') return { index: v.index, text: v.delta.text };
  } catch {
    // not JSON
  }
  return undefined;
}

const HEAD = '{"type":"content_block_delta","index":';

describe('readTextDelta', () => {
  it('reads Anthropic\'s spelling of every text delta exactly (escapes, quotes, braces, unicode)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000 }), fc.string({ unit: 'binary', maxLength: 60 }), (index, text) => {
        const data = JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
        expect(readTextDelta(data)).toEqual({ index, text });
      }),
      { numRuns: 500 },
    );
    expect(readTextDelta(`${HEAD}3,"delta":{"type":"text_delta","text":"a\\"}} \\u00e9"}}`)).toEqual({ index: 3, text: 'a"}} é' });
  });

  it('never disagrees with the full parse: other spellings and broken events go to the full parse', () => {
    const near = fc.oneof(
      fc.string(),
      fc.string().map((s) => HEAD + s),
      fc.tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 20 })).map(([i, t]) => `${HEAD}${i},"delta":{"type":"text_delta","text":${t}}}`),
      fc.string({ maxLength: 20 }).map((t) => `${HEAD}0,"delta":{"type":"text_delta","text":"${t}"}}`),
    );
    fc.assert(
      fc.property(near, (data) => {
        const fast = readTextDelta(data);
        if (fast !== undefined) expect(fast).toEqual(viaFullParse(data));
      }),
      { numRuns: 2_000 },
    );
    for (const other of [
      `${HEAD}0,"delta":{"type":"text_delta","text":"a","extra":1}}`,
      `${HEAD}0,"delta":{"type":"text_delta","text":"a"},"x":"y"}`,
      `${HEAD}01,"delta":{"type":"text_delta","text":"a"}}`,
      `${HEAD}0,"delta":{"type":"text_delta","text":"a"}} `,
      `{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"a"}}`,
    ]) {
      expect(readTextDelta(other), other).toBeUndefined();
    }
  });
});
