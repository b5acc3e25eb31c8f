import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTokenAsRope, PIECE_BYTES } from '../../src/protocols/rope-decode.js';
import { parseKeepingStrings, stringifyKeepingStrings, VerbatimStrings } from '../../src/protocols/verbatim-strings.js';

/** A JSON spelling of `s` with some characters written as \uXXXX escapes (as other encoders do). */
function spell(s: string, escapeEvery: number): string {
  let out = '"';
  let i = 0;
  for (const ch of s) {
    i++;
    if (escapeEvery > 0 && i % escapeEvery === 0) {
      for (let k = 0; k < ch.length; k++) out += `\\u${ch.charCodeAt(k).toString(16).padStart(4, '0')}`;
    } else out += JSON.stringify(ch).slice(1, -1);
  }
  return out + '"';
}

function rope(token: string, pieceBytes: number): string | undefined {
  const span = Buffer.from(token);
  return decodeTokenAsRope(span, 0, span.length, token.includes('\\'), pieceBytes);
}

describe('decodeTokenAsRope', () => {
  it('gives what JSON.parse gives for every piece size, cutting no character or escape (property)', () => {
    // escapes of every kind, backslash runs, quotes, 2-, 3- and 4-byte UTF-8, lone surrogates
    const text = fc.string({ maxLength: 60, unit: fc.oneof(fc.constantFrom('\\', '\\\\', '"', '\n', '\t', '/', 'é', '€', '😀', '\ud800', '\udfff', '\u0001'), fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })) });
    fc.assert(
      fc.property(text, fc.nat(4), fc.integer({ min: 1, max: 24 }), (s, escapeEvery, pieceBytes) => {
        const token = spell(s, escapeEvery);
        const got = rope(token, pieceBytes);
        // a piece of 16 bytes or more always finds a cut (at most 3 + 1 + 5 bytes back)
        if (pieceBytes >= 16) expect(got).toBeDefined();
        if (got !== undefined) expect(got).toBe(JSON.parse(token));
      }),
      { numRuns: 2000 },
    );
  });

  it('cuts a long token at every kind of boundary', () => {
    for (const unit of ['a', 'é', '€', '😀', '\\n', '\\\\', '\\u00e9', '\\ud83d\\ude00', 'ab\\"']) {
      const token = `"${unit.repeat(200)}"`;
      for (let pieceBytes = 16; pieceBytes <= 40; pieceBytes++) expect(rope(token, pieceBytes), `${unit} / ${pieceBytes}`).toBe(JSON.parse(token));
    }
  });

  it('leaves a malformed escape to JSON.parse, which refuses it', () => {
    expect(() => rope(`"${'a'.repeat(40)}\\x${'a'.repeat(40)}"`, 16)).toThrow(SyntaxError);
  });

  it('a long string read by parseKeepingStrings is the client\'s text, and is written back as its bytes', () => {
    const text = `${'line of code; // é€😀 "quoted"\n\t'.repeat(Math.ceil((3 * PIECE_BYTES) / 30))}end`;
    const prefix = '{"messages":[{"content":';
    for (const token of [JSON.stringify(text), spell(text, 7)]) {
      const json = `${prefix}${token}}]}`;
      const kept = new VerbatimStrings();
      const value = parseKeepingStrings(Buffer.from(json), kept) as { messages: { content: string }[] };
      expect(value.messages[0]!.content).toBe(text);
      expect(kept.size).toBe(1);
      const out = stringifyKeepingStrings({ model: 'm', messages: value.messages }, kept);
      expect(Buffer.isBuffer(out)).toBe(true);
      expect(out.toString()).toBe(`{"model":"m","messages":[{"content":${token}}]}`);
    }
  });
});
