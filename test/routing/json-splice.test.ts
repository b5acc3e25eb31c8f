import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editJsonBody, spliceMembers, trackWrites, SPLICE_MIN_BYTES } from '../../src/routing/json-splice.js';
import { scanTopLevelMembers } from '../../src/protocols/json-members.js';

function big(extra: Record<string, unknown> = {}): Buffer {
  const messages = Array.from({ length: 200 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: [{ type: 'text', text: `turn ${i} "quoted" \\ back\\slash \n ünïcödé 🎉 ${'x'.repeat(100)}` }],
  }));
  return Buffer.from(JSON.stringify({ model: 'openai/gpt-5', messages, temperature: 1.0, ...extra }));
}

describe('scanTopLevelMembers', () => {
  it('finds every top-level member with exact spans', () => {
    const raw = Buffer.from(' { "a" : 1 , "b":{"x":[1,"}",{"y":"\\""}]}, "c":"s\\\\", "d": null , "e":[ ] } ');
    const members = scanTopLevelMembers(raw)!;
    expect(members.map((m) => m.key)).toEqual(['a', 'b', 'c', 'd', 'e']);
    const pieces = members.map((m) => JSON.parse(`{${raw.toString('utf8', m.start, m.end)}}`));
    expect(pieces).toEqual([{ a: 1 }, { b: { x: [1, '}', { y: '"' }] } }, { c: 's\\' }, { d: null }, { e: [] }]);
  });

  it('refuses what it cannot prove plain: duplicate or escaped keys, non-objects', () => {
    expect(scanTopLevelMembers(Buffer.from('{"model":"a","model":"b"}'))).toBeUndefined();
    expect(scanTopLevelMembers(Buffer.from('{"mod\\u0065l":"a"}'))).toBeUndefined();
    expect(scanTopLevelMembers(Buffer.from('[1,2]'))).toBeUndefined();
    expect(scanTopLevelMembers(Buffer.from('{}'))).toEqual([]);
  });

  it('handles long strings ending in escaped backslashes', () => {
    const text = `${'y'.repeat(200)}\\\\`;
    const raw = Buffer.from(`{"a":"${text}","b":2}`);
    const members = scanTopLevelMembers(raw)!;
    expect(members.map((m) => m.key)).toEqual(['a', 'b']);
  });

  it('agrees with JSON.parse on arbitrary objects', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (obj, indented) => {
        const raw = Buffer.from(JSON.stringify(obj, null, indented ? 2 : 0));
        const members = scanTopLevelMembers(raw);
        if (!members) return; // escaped keys: refused, which is allowed
        const rebuilt = spliceMembers(raw, members, JSON.parse(raw.toString()), new Set());
        expect(JSON.parse(rebuilt.toString())).toEqual(JSON.parse(raw.toString()));
      }),
      { numRuns: 300 },
    );
  });
});

describe('editJsonBody', () => {
  it('splices: untouched members keep their exact bytes, edited ones are re-serialised', () => {
    const raw = big({ tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', $schema: 'x' } } }], n: 1.0 });
    expect(raw.length).toBeGreaterThan(SPLICE_MIN_BYTES);
    const parsed = JSON.parse(raw.toString());
    const { bytes } = editJsonBody(raw, parsed, () => JSON.parse(raw.toString()), (body) => {
      body.model = 'gpt-5';
      const tools = body.tools as Array<{ function: { parameters: Record<string, unknown> } }>;
      delete tools[0]!.function.parameters.$schema; // nested in-place edit
      body.reasoning_effort = 'high';
      delete body.temperature;
    });
    expect(Buffer.isBuffer(bytes)).toBe(true);
    const text = bytes.toString();
    const out = JSON.parse(text);
    expect(out.model).toBe('gpt-5');
    expect(out.tools[0].function.parameters).toEqual({ type: 'object' });
    expect(out.reasoning_effort).toBe('high');
    expect('temperature' in out).toBe(false);
    // untouched `n: 1.0` keeps its spelling, and messages are byte-identical
    expect(text).toContain('"n":1');
    const rawText = raw.toString();
    const msgStart = rawText.indexOf('"messages"');
    const msgEnd = rawText.indexOf(',"temperature"');
    expect(text).toContain(rawText.slice(msgStart, msgEnd));
  });

  it('small bodies take the plain path', () => {
    const raw = Buffer.from('{"model":"x/y","a":1}');
    const { bytes } = editJsonBody(raw, JSON.parse(raw.toString()), () => ({}), (b) => {
      b.model = 'y';
    });
    expect(bytes).toBe('{"model":"y","a":1}');
  });

  it('falls back to a plain edit when the tracked edit throws', () => {
    const raw = big();
    let calls = 0;
    const { bytes } = editJsonBody(raw, JSON.parse(raw.toString()), () => JSON.parse(raw.toString()), (b) => {
      calls++;
      if (calls === 1) structuredClone(b); // proxies cannot be cloned
      b.model = 'm';
    });
    expect(calls).toBe(2);
    expect(JSON.parse(bytes.toString()).model).toBe('m');
  });

  it('tracks writes through array methods and nested reads', () => {
    const root = { a: [{ x: 1 }], b: { c: { d: 1 } }, e: 1 };
    const { proxy, dirty } = trackWrites(root);
    const a = proxy.a as Array<{ x: number }>;
    void (proxy.b as { c: { d: number } }).c.d;
    expect([...dirty]).toEqual([]);
    a.push({ x: 2 });
    expect([...dirty]).toEqual(['a']);
    (proxy.b as { c: { d: number } }).c.d = 2;
    expect([...dirty].sort()).toEqual(['a', 'b']);
    expect(root.b.c.d).toBe(2);
  });
});
