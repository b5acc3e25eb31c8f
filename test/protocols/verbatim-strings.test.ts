import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseKeepingStrings, stringifyKeepingStrings, VERBATIM_MIN_BYTES, VerbatimStrings } from '../../src/protocols/verbatim-strings.js';

const FILLER = 'The function reads the configuration and writes it atomically. ';
const long = (n: number, tail = '') => FILLER.repeat(Math.ceil(n / FILLER.length)).slice(0, n) + tail;

function read(json: string | Buffer): { value: unknown; kept: VerbatimStrings } {
  const kept = new VerbatimStrings();
  return { value: parseKeepingStrings(Buffer.isBuffer(json) ? json : Buffer.from(json), kept), kept };
}

function text(out: string | Buffer): string {
  return typeof out === 'string' ? out : out.toString('utf8');
}

describe('parseKeepingStrings', () => {
  it('reads as JSON.parse does, and writing back gives the same JSON (property)', () => {
    // strings around the threshold, with escapes, quotes, backslashes, non-ASCII and astral characters
    const longString = fc
      .tuple(fc.string({ minLength: VERBATIM_MIN_BYTES - 8, maxLength: VERBATIM_MIN_BYTES + 64, unit: 'grapheme' }), fc.constantFrom('', '"', '\\', '\n', '\u0001', 'é', '😀'))
      .map(([s, extra]) => s + extra + s.slice(0, 7));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), longString, tie('array'), tie('object')),
      array: fc.array(tie('node'), { maxLength: 4 }),
      object: fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constant('__proto__'), longString), tie('node'), { maxKeys: 4 }),
    })).node;
    fc.assert(
      fc.property(value, fc.boolean(), (v, pretty) => {
        const json = pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v);
        const { value: parsed, kept } = read(json);
        const expected: unknown = JSON.parse(json);
        expect(parsed).toEqual(expected);
        expect(JSON.stringify(parsed)).toBe(JSON.stringify(expected)); // member order, __proto__ as an own member
        expect(JSON.parse(text(stringifyKeepingStrings(parsed, kept)))).toEqual(expected);
        expect(text(stringifyKeepingStrings(parsed, kept))).toBe(JSON.stringify(expected)); // these tokens are JSON.stringify's own spelling
      }),
      { numRuns: 150 },
    );
  });

  it('remembers each long string with the bytes the client sent', () => {
    const token = `"${long(VERBATIM_MIN_BYTES)}\\u00e9\\/\\n"`; // escapes JSON.stringify would spell differently
    const { value, kept } = read(`{"a":[${token}, "short"], "b": ${token}}`);
    const { a } = value as { a: string[] };
    expect(a[0]).toBe(`${long(VERBATIM_MIN_BYTES)}é/\n`);
    expect(kept.size).toBe(2);
    expect(kept.tokenFor(a[0]!)?.toString()).toBe(token);
    expect(kept.tokenFor('short')).toBeUndefined();
    expect(kept.tokenFor(long(VERBATIM_MIN_BYTES) + 'x/\n')).toBeUndefined(); // same length, other text
  });

  it('finds a kept string alone at its length, and no other string of that length', () => {
    const a = long(VERBATIM_MIN_BYTES * 2, 'a');
    const { value, kept } = read(JSON.stringify({ a, b: long(VERBATIM_MIN_BYTES * 3) }));
    const parsed = value as { a: string; b: string };
    expect(kept.tokenFor(parsed.a)?.toString()).toBe(JSON.stringify(a));
    expect(kept.tokenFor(`${a.slice(0, -1)}b`)).toBeUndefined();
    expect(kept.tokenFor(a.slice(0, -1))).toBeUndefined();
    // a third string of a kept one's length: both are then told apart by their characters
    kept.add(`${a.slice(0, -1)}c`, Buffer.from('"c"'));
    expect(kept.tokenFor(parsed.a)?.toString()).toBe(JSON.stringify(a));
    expect(kept.tokenFor(`${a.slice(0, -1)}c`)?.toString()).toBe('"c"');
    expect(kept.tokenFor(`${a.slice(0, -1)}b`)).toBeUndefined();
  });

  it('a long "__proto__" member is an own member, as JSON.parse makes it', () => {
    const json = JSON.stringify({ a: { ['__proto__']: 1 } }).replace('1', JSON.stringify(long(VERBATIM_MIN_BYTES)));
    const { value, kept } = read(json);
    const a = (value as { a: object }).a;
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(a, '__proto__')?.value).toBe(long(VERBATIM_MIN_BYTES));
    expect(text(stringifyKeepingStrings(value, kept))).toBe(json);
  });

  it('leaves strings below the threshold and long keys to JSON.parse', () => {
    const shortish = long(VERBATIM_MIN_BYTES - 3); // 1 byte short with its quotes
    const key = long(VERBATIM_MIN_BYTES * 2);
    const { value, kept } = read(JSON.stringify({ [key]: shortish }));
    expect(value).toEqual({ [key]: shortish });
    expect(kept.size).toBe(0);
  });

  it('refuses what JSON.parse refuses, with its message', () => {
    const cases = [
      `{"a": "${long(VERBATIM_MIN_BYTES)}\u0001"}`, // raw control character in a long string
      `{"a": "${long(VERBATIM_MIN_BYTES)}\\x"}`, // bad escape
      `{"a": "${long(VERBATIM_MIN_BYTES)}", }`, // trailing comma after a long string
      `{"a": "${long(VERBATIM_MIN_BYTES)}`, // unterminated
      `["${long(VERBATIM_MIN_BYTES)}" "${long(VERBATIM_MIN_BYTES)}"]`, // missing comma between two
    ];
    for (const json of cases) {
      let message = '';
      try {
        JSON.parse(json);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).not.toBe('');
      expect(() => read(json)).toThrow(new SyntaxError(message));
    }
  });

  it('finds a raw control character at any position and alignment, and nothing else', () => {
    const body = `${long(VERBATIM_MIN_BYTES)}ü😀\u007f`;
    for (let pad = 0; pad < 4; pad++) {
      const ok = Buffer.from(`${' '.repeat(pad)}["${body}"]`);
      expect(read(ok.subarray(pad)).value).toEqual([JSON.parse(`"${body}"`)]); // subarray: every byte offset mod 4
      for (const at of [0, 1, 2, 3, 4, 5, 100, VERBATIM_MIN_BYTES - 1, body.length - 1, body.length]) {
        for (const control of [0x00, 0x09, 0x1f]) {
          const bad = Buffer.from(`${' '.repeat(pad)}["${body.slice(0, at)}${String.fromCharCode(control)}${body.slice(at)}"]`);
          expect(() => read(bad.subarray(pad)), `${control} at ${at}, offset ${pad}`).toThrow(SyntaxError);
        }
      }
    }
  });

  it('does not keep a string whose bytes are not UTF-8 (it was decoded to U+FFFD)', () => {
    const raw = Buffer.concat([Buffer.from(`{"a":"${long(VERBATIM_MIN_BYTES)}`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const { value, kept } = read(raw);
    expect((value as { a: string }).a.endsWith('\ufffd\ufffd')).toBe(true);
    expect(kept.size).toBe(0);
    expect(stringifyKeepingStrings(value, kept)).toBe(JSON.stringify(value));
  });

  it('a string that only looks like a placeholder is an ordinary string', () => {
    const json = JSON.stringify({ a: '\u0000:0', b: long(VERBATIM_MIN_BYTES), c: '\u0000' });
    const { value, kept } = read(json);
    expect(value).toEqual(JSON.parse(json));
    expect(text(stringifyKeepingStrings(value, kept))).toBe(json);
  });
});

describe('stringifyKeepingStrings', () => {
  const token = `"\\u0041${long(VERBATIM_MIN_BYTES)}"`; // "A…": JSON.stringify would write the A plainly

  it('writes kept strings as the client spelled them, wherever the value now sits', () => {
    const { value, kept } = read(`{"messages":[{"content":${token}}]}`);
    const content = (value as { messages: { content: string }[] }).messages[0]!.content;
    const target = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: content }] }], again: content };
    const out = stringifyKeepingStrings(target, kept);
    expect(Buffer.isBuffer(out)).toBe(true);
    expect(text(out)).toBe(`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":${token}}]}],"again":${token}}`);
    expect(JSON.parse(text(out))).toEqual(target);
  });

  it('a string equal to a kept one counts, a changed one is serialised anew', () => {
    const { value, kept } = read(`[${token}]`);
    const original = (value as string[])[0]!;
    const rebuilt = original.split('').join(''); // another string with the same text
    const changed = `${original}!`;
    expect(text(stringifyKeepingStrings({ rebuilt, changed }, kept))).toBe(`{"rebuilt":${token},"changed":${JSON.stringify(changed)}}`);
  });

  it('leaves its input as it was, and serialises like JSON.stringify otherwise', () => {
    const { value, kept } = read(`{"a":${token},"n":[1,2.50,null,true]}`);
    const target = { list: [value], skipped: undefined, when: new Date(0), ['__proto__']: 'x' };
    Object.defineProperty(target, '__proto__', { value: (value as { a: string }).a, enumerable: true });
    const before = JSON.stringify(target);
    const out = text(stringifyKeepingStrings(target, kept));
    expect(JSON.stringify(target)).toBe(before);
    expect(JSON.parse(out)).toEqual(JSON.parse(before));
    expect(out).toContain(`"__proto__":${token}`);
    expect(stringifyKeepingStrings({ a: 1 }, kept)).toBe('{"a":1}');
    expect(stringifyKeepingStrings(undefined, kept)).toBeUndefined();
    expect(stringifyKeepingStrings(target, undefined)).toBe(before);
  });

  it('keeps multi-byte text byte for byte', () => {
    const raw = Buffer.from(`{"t":"${'ünïcødé 😀 '.repeat(200)}"}`);
    const { value, kept } = read(raw);
    const out = stringifyKeepingStrings({ x: (value as { t: string }).t }, kept) as Buffer;
    expect(out.equals(Buffer.concat([Buffer.from('{"x":'), raw.subarray(5, raw.length - 1), Buffer.from('}')]))).toBe(true);
  });
});
