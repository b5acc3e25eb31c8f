/**
 * The incremental reader of a freeform call's input text out of `{"input": "…"}` arguments: the
 * text it gives out, concatenated, is what JSON.parse reads, however the arguments are cut; no
 * delta ends in half a surrogate pair; other shapes are decided at the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FreeformInput, freeformInputOf } from '../../src/routing/freeform-input.js';
import { splitAt } from '../protocols/shared/helpers.js';

/** Feeds the pieces in order, then ends; returns every delta given out (empty ones dropped). */
function deltas(pieces: readonly string[]): string[] {
  const reader = new FreeformInput();
  const out = pieces.map((p) => reader.push(p));
  out.push(reader.end());
  return out.filter((d) => d !== '');
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** No delta ends in a high surrogate whose low half exists (it would go out as U+FFFD alone). */
function expectNoSplitPair(parts: readonly string[]): void {
  for (let i = 0; i < parts.length - 1; i++) {
    const d = parts[i]!;
    const next = parts[i + 1]!;
    expect(isHigh(d.charCodeAt(d.length - 1)) && isLow(next.charCodeAt(0)), `delta ${i} of ${JSON.stringify(parts)}`).toBe(false);
  }
}

/** Every way of cutting `json` in two and in three pieces (all cut points, the three-way ones on a grid). */
function cuts(json: string): string[][] {
  const out: string[][] = [[json]];
  for (let i = 0; i <= json.length; i++) out.push([json.slice(0, i), json.slice(i)]);
  const step = Math.max(1, Math.floor(json.length / 12));
  for (let i = 0; i <= json.length; i += step) {
    for (let j = i; j <= json.length; j++) out.push([json.slice(0, i), json.slice(i, j), json.slice(j)]);
  }
  // one character at a time
  out.push([...json].flatMap((ch) => (ch.length === 2 ? [ch[0]!, ch[1]!] : [ch])));
  return out;
}

const PATCH = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const a = "x";\n+const a = \'y\'; // ✓ café\n*** End Patch';

describe('freeform input: {"input": "…"} read as it arrives', () => {
  const golden: Array<[string, string]> = [
    ['{"input":"hello"}', 'hello'],
    ['{"input":""}', ''],
    [' \n{ "input" :\t"spaced" } ', 'spaced'],
    ['{"input":"a\\nb\\tc\\rd\\be\\ff\\/g\\\\h\\"i"}', 'a\nb\tc\rd\be\ff/g\\h"i'],
    ['{"input":"\\u00e9\\u4e2d\\uD83D\\uDE00"}', 'é中😀'],
    ['{"input":"😀 and é"}', '😀 and é'],
    ['{"input":"x","other":1}', 'x'],
    ['{"\\u0069nput":"escaped key"}', 'escaped key'],
    [JSON.stringify({ input: PATCH }), PATCH],
  ];
  for (const [json, text] of golden) {
    it(`${json.slice(0, 40)} → ${JSON.stringify(text).slice(0, 30)}`, () => {
      expect(freeformInputOf(json)).toBe(text);
    });
  }

  it('gives out the text as it comes: each piece of the value as soon as it is certain', () => {
    const reader = new FreeformInput();
    expect(reader.push('{"inp')).toBe('');
    expect(reader.push('ut": "*** Begin')).toBe('*** Begin');
    expect(reader.push(' Patch\\')).toBe(' Patch');
    expect(reader.push('n***')).toBe('\n***');
    expect(reader.push(' End\\u00')).toBe(' End');
    expect(reader.push('e9"}')).toBe('é');
    expect(reader.push(' trailing')).toBe('');
    expect(reader.end()).toBe('');
  });

  it('equals JSON.parse at every cut of several inputs, in two and three pieces', () => {
    const inputs = [
      JSON.stringify({ input: PATCH }),
      '{"input":"\\uD83D\\uDE00\\uD83D\\uDE00 \\u00e9\\\\\\"\\/"}',
      '{ "input" : "😀😀 mixed \\ud83d\\ude00 escapes \\n" , "x" : [1] }',
      JSON.stringify({ input: 'a\u2028b\u0001c\u007f' }),
    ];
    for (const json of inputs) {
      const expected = (JSON.parse(json) as { input: string }).input;
      for (const pieces of cuts(json)) {
        const out = deltas(pieces);
        expect(out.join(''), JSON.stringify(pieces)).toBe(expected);
        expectNoSplitPair(out);
      }
    }
  });

  it('holds a high surrogate back until its low half arrives, escaped or not, split anywhere', () => {
    const reader = new FreeformInput();
    expect(reader.push('{"input":"a\\uD83D')).toBe('a');
    expect(reader.push('\\uDE')).toBe('');
    expect(reader.push('00b')).toBe('😀b');
    const literal = new FreeformInput();
    literal.push('{"input":"');
    expect(literal.push('x\uD83D')).toBe('x');
    expect(literal.push('\uDE00"}')).toBe('😀');
    // a lone high surrogate is given out once it is clear nothing pairs with it (as JSON.parse reads it)
    expect(freeformInputOf('{"input":"\\uD83Dx"}')).toBe('\uD83Dx');
    expect(deltas(['{"input":"\\uD83D', '"}'])).toEqual(['\uD83D']);
  });

  it('a stream cut inside the value gives what was decoded (an unfinished escape decodes to nothing)', () => {
    expect(freeformInputOf('{"input":"*** Begin Patch\\n*** Add')).toBe('*** Begin Patch\n*** Add');
    expect(freeformInputOf('{"input":"ab\\')).toBe('ab');
    expect(freeformInputOf('{"input":"ab\\u00')).toBe('ab');
    expect(freeformInputOf('{"input":"ab\\uD83D')).toBe('ab\uD83D');
  });
});

describe('freeform input: other shapes, decided at the end', () => {
  const cases: Array<[string, string, string]> = [
    ['another key first, then input', '{"path":"a","input":"the text"}', 'the text'],
    ['one string member of another name', '{"patch":"*** Begin Patch"}', '*** Begin Patch'],
    ['input not a string, one member', '{"input":5}', '{"input":5}'],
    ['two members, no input', '{"a":"x","b":"y"}', '{"a":"x","b":"y"}'],
    ['one member, not a string', '{"a":[1]}', '{"a":[1]}'],
    ['an empty object', '{}', '{}'],
    ['an array', '["x"]', '["x"]'],
    ['a JSON string', '"just text"', '"just text"'],
    ['not JSON at all', '*** Begin Patch\n*** End Patch', '*** Begin Patch\n*** End Patch'],
    ['nothing', '', ''],
    ['cut before the value', '{"inp', '{"inp'],
    ['cut after the key', '{"input":', '{"input":'],
  ];
  for (const [name, json, text] of cases) {
    it(name, () => {
      expect(freeformInputOf(json)).toBe(text);
      // nothing is given out before the end, however it is cut
      for (const pieces of cuts(json)) {
        const reader = new FreeformInput();
        for (const p of pieces) expect(reader.push(p)).toBe('');
        expect(reader.end()).toBe(text);
      }
    });
  }
});

describe('freeform input: properties', () => {
  /** Strings with escapes, astral characters, lone surrogates and quotes. */
  const anyCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });
  const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '/', '\n', '\u2028', '😀', '\uD83D', '\uDE00', 'é', 'a', ' '), anyCodePoint), maxLength: 40 });

  it('any text, written by JSON.stringify and cut anywhere, comes out whole, never with a pair split', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (value, cutAt, escapeAll) => {
        let json = JSON.stringify({ input: value });
        // the same text with every non-ASCII character written as \uXXXX escapes
        if (escapeAll) json = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        const out = deltas(splitAt(json, cutAt.map((n) => n % (json.length + 1))));
        expect(out.join('')).toBe(value);
        expectNoSplitPair(out);
      }),
      { numRuns: 500 },
    );
  });

  it('the whole-call reading and the streamed one agree on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.nat(), (raw, at) => {
        const cut = at % (raw.length + 1);
        expect(deltas([raw.slice(0, cut), raw.slice(cut)]).join('')).toBe(freeformInputOf(raw));
      }),
      { numRuns: 500 },
    );
  });
});
