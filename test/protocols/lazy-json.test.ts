import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/protocols/errors.js';
import { scanArrayElements, scanTopLevelMembers } from '../../src/protocols/json-members.js';
import { LAZY_MEMBER_BYTES, lastElement, lazyJsonBody, mayContain, mayContainTwice, unparsedMember, walkBack } from '../../src/protocols/lazy-json.js';

const FILLER = 'The function reads the configuration and writes it atomically. ';
const long = (n: number) => FILLER.repeat(Math.ceil(n / FILLER.length)).slice(0, n);

function lazy(raw: string | Buffer): Record<string, unknown> {
  const buf = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
  return lazyJsonBody(buf, scanTopLevelMembers(buf)!);
}

const conversation = (extra: Record<string, unknown> = {}) => ({
  model: 'ca/x',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: long(LAZY_MEMBER_BYTES * 3) },
  ],
  max_tokens: 10,
  ...extra,
});

describe('lazyJsonBody', () => {
  it('reads as JSON.parse does, member order included (property)', () => {
    const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ minLength: LAZY_MEMBER_BYTES, maxLength: LAZY_MEMBER_BYTES * 2 }));
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 6 }), (obj) => {
        const raw = JSON.stringify(obj);
        const members = scanTopLevelMembers(Buffer.from(raw));
        fc.pre(members !== undefined); // escaped or duplicate keys: the caller parses whole
        const body = lazy(raw);
        const parsed = JSON.parse(raw) as Record<string, unknown>;
        expect(Object.keys(body)).toEqual(Object.keys(parsed));
        expect(JSON.stringify(body)).toBe(JSON.stringify(parsed));
        expect(body).toEqual(parsed);
      }),
      { numRuns: 200 },
    );
  });

  it('parses small members at once and large ones on first read', () => {
    const body = lazy(JSON.stringify(conversation()));
    expect(unparsedMember(body, 'model')).toBeUndefined();
    expect(unparsedMember(body, 'max_tokens')).toBeUndefined();
    expect(unparsedMember(body, 'messages')?.toString()).toBe(JSON.stringify(conversation().messages));
    const messages = body.messages as { role: string }[];
    expect(messages[0]!.role).toBe('system');
    expect(unparsedMember(body, 'messages')).toBeUndefined();
    expect(body.messages).toBe(messages); // parsed once, a plain property from then on
    expect(Object.getOwnPropertyDescriptor(body, 'messages')).toMatchObject({ writable: true, enumerable: true, value: messages });
  });

  it('a write replaces the member without parsing it; a delete removes it', () => {
    const body = lazy(JSON.stringify(conversation({ tools: [{ name: long(LAZY_MEMBER_BYTES) }] })));
    body.messages = [];
    expect(body.messages).toEqual([]);
    expect(unparsedMember(body, 'messages')).toBeUndefined();
    delete body.tools;
    expect('tools' in body).toBe(false);
    expect(unparsedMember(body, 'tools')).toBeUndefined();
    expect(JSON.parse(JSON.stringify(body))).toEqual({ model: 'ca/x', messages: [], max_tokens: 10 });
  });

  it('a member that is not valid JSON is a 400 invalid_json when read, and nothing before', () => {
    const good = JSON.stringify(conversation());
    const at = good.indexOf('"role":"user"');
    const raw = `${good.slice(0, at)}"role":"user",,${good.slice(at + '"role":"user"'.length)}`;
    const body = lazy(raw);
    expect(body.model).toBe('ca/x');
    let thrown: unknown;
    try {
      void body.messages;
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect(thrown).toMatchObject({ status: 400, code: 'invalid_json' });
    expect((thrown as Error).message).toContain('"messages"');
  });

  it('a small member that is not valid JSON fails at once', () => {
    const raw = Buffer.from(`{"model":"ca/x","n":1x,"messages":"${long(LAZY_MEMBER_BYTES * 2)}"}`);
    const members = scanTopLevelMembers(raw);
    expect(members).toBeDefined();
    expect(() => lazyJsonBody(raw, members!)).toThrow(expect.objectContaining({ code: 'invalid_json' }) as Error);
  });

  it('"__proto__" stays an own member, as JSON.parse keeps it', () => {
    const raw = `{"model":"m","__proto__":{"polluted":true},"messages":"${long(LAZY_MEMBER_BYTES)}"}`;
    const body = lazy(raw);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.keys(body)).toEqual(['model', '__proto__', 'messages']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('mayContain', () => {
  it('false only while the member is unparsed and its bytes cannot spell the word', () => {
    const plain = lazy(JSON.stringify(conversation()));
    expect(mayContain(plain, 'messages', 'input_audio')).toBe(false);
    expect(mayContain(plain, 'messages', 'system')).toBe(true);
    expect(unparsedMember(plain, 'messages')).toBeDefined(); // looking did not parse it
    void plain.messages;
    expect(mayContain(plain, 'messages', 'input_audio')).toBe(true); // parsed: the caller looks itself
  });

  it('a \\u escape anywhere in the member could spell the word: true', () => {
    const raw = JSON.stringify(conversation()).replace('"be brief"', '"input\\u005faudio"');
    const body = lazy(raw);
    expect(mayContain(body, 'messages', 'input_audio')).toBe(true);
    expect((body.messages as { content: string }[])[0]!.content).toBe('input_audio');
  });

  it('the word inside other text is not the word (quotes are part of the match)', () => {
    const body = lazy(JSON.stringify(conversation({ messages: [{ role: 'user', content: `input_audio ${long(LAZY_MEMBER_BYTES)}` }] })));
    expect(mayContain(body, 'messages', 'input_audio')).toBe(false);
  });

  it('answers as counting the quoted word in the bytes does, however its letters are cut (property)', () => {
    // the search looks for the word's last letters and compares the rest: near misses must not count
    const pieces = ['"', ' ', 'system', 'ecosystem', 'stem', 'sy', 'developer', 'codeveloper', 'dev', 'eloper', 'x'];
    const count = (text: string, quoted: string) => text.split(quoted).length - 1;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.constantFrom('system', 'developer', 'stem'), (cut, word) => {
        const text = cut.join('') + ' ' + long(LAZY_MEMBER_BYTES);
        const raw = Buffer.from(`{"messages":${text}}`);
        const body = lazyJsonBody(raw, [{ key: 'messages', start: 1, valueStart: 12, end: raw.length - 1 }]);
        expect(mayContain(body, 'messages', word)).toBe(count(text, `"${word}"`) >= 1);
        expect(mayContainTwice(body, 'messages', word)).toBe(count(text, `"${word}"`) >= 2);
      }),
      { numRuns: 500 },
    );
  });

  it('a body parsed whole, or a member absent: true', () => {
    expect(mayContain({ messages: [] }, 'messages', 'x')).toBe(true);
    expect(mayContain(lazy(JSON.stringify(conversation())), 'input', 'x')).toBe(true);
  });
});

describe('scanArrayElements', () => {
  it('agrees with JSON.parse on arbitrary arrays, whitespace included (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 8 }), fc.constantFrom(undefined, 2), (arr, indent) => {
        const raw = Buffer.from(JSON.stringify(arr, null, indent));
        const spans = scanArrayElements(raw)!;
        expect(spans.map(({ start, end }) => JSON.parse(raw.toString('utf8', start, end)) as unknown)).toEqual(JSON.parse(raw.toString()));
      }),
      { numRuns: 200 },
    );
  });

  it('is undefined for anything but an array', () => {
    expect(scanArrayElements(Buffer.from('{"a":[1]}'))).toBeUndefined();
    expect(scanArrayElements(Buffer.from('"[1]"'))).toBeUndefined();
    expect(scanArrayElements(Buffer.from(' [ ] '))).toEqual([]);
  });
});

describe('lastElement', () => {
  const isAssistant = (m: unknown) => (m as { role?: string }).role === 'assistant';
  const turns = [
    { role: 'user', content: long(LAZY_MEMBER_BYTES) },
    { role: 'assistant', content: 'first' },
    { role: 'user', content: 'mentions "assistant" in passing' },
    { role: 'assistant', content: 'second' },
    { role: 'user', content: long(LAZY_MEMBER_BYTES) },
  ];

  it('finds the last element it accepts, leaving an unparsed member unparsed', () => {
    const body = lazy(JSON.stringify(conversation({ messages: turns })));
    expect(lastElement(body, 'messages', 'assistant', isAssistant)).toEqual({ role: 'assistant', content: 'second' });
    expect(unparsedMember(body, 'messages')).toBeDefined();
    expect(lastElement(body, 'messages', 'tool', isAssistant)).toBeUndefined(); // no element holds "tool"
  });

  it('reads a parsed member, or a body parsed whole, the same way', () => {
    const body = lazy(JSON.stringify(conversation({ messages: turns })));
    void body.messages;
    expect(lastElement(body, 'messages', 'assistant', isAssistant)).toBe((body.messages as unknown[])[3]);
    expect(lastElement({ messages: turns }, 'messages', 'assistant', isAssistant)).toBe(turns[3]);
    expect(lastElement({ messages: 'x' }, 'messages', 'assistant', isAssistant)).toBeUndefined();
  });

  it('a \\u escape in the member could spell the word: every element is looked at', () => {
    const raw = JSON.stringify(conversation({ messages: turns })).replace('"role":"assistant","content":"second"', '"role":"\\u0061ssistant","content":"second"');
    expect(lastElement(lazy(raw), 'messages', 'assistant', isAssistant)).toEqual({ role: 'assistant', content: 'second' });
  });
});

describe('walkBack', () => {
  const turns = [
    { role: 'user', content: long(LAZY_MEMBER_BYTES) },
    { role: 'assistant', content: 'a', tool_calls: [{ id: '1' }] },
    { role: 'tool', content: 'r1' },
    { role: 'user', content: 'next' },
    { role: 'assistant', content: 'b', tool_calls: [{ id: '2' }] },
    { role: 'tool', content: 'r2' },
  ];
  const visited = (body: Record<string, unknown>, words: string[], stopAt?: string): unknown[] => {
    const seen: unknown[] = [];
    walkBack(body, 'messages', words, (m) => {
      seen.push(m);
      return (m as { role?: string }).role !== stopAt;
    });
    return seen;
  };

  it('visits from the end until told to stop, skipping unparsed elements that hold none of the words', () => {
    const body = lazy(JSON.stringify(conversation({ messages: turns })));
    expect(visited(body, ['user', 'tool_calls'], 'user')).toEqual([turns[4], turns[3]]);
    expect(visited(body, ['tool_calls'])).toEqual([turns[4], turns[1]]);
    expect(unparsedMember(body, 'messages')).toBeDefined();
  });

  it('visits every element of a parsed member', () => {
    expect(visited({ messages: turns }, ['user'], 'user')).toEqual([turns[5], turns[4], turns[3]]);
    expect(visited({ messages: 'x' }, ['user'])).toEqual([]);
  });
});
