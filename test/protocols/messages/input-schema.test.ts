import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitInputSchema } from '../../../src/protocols/messages/input-schema.js';

const COMBINATORS = ['oneOf', 'anyOf', 'allOf'];

describe('fitInputSchema (Anthropic tool input_schema: object, no root combinator)', () => {
  it('leaves a plain object schema as it is, and makes anything else an empty object', () => {
    const plain = { type: 'object', properties: { city: { type: 'string', anyOf: [{ minLength: 1 }] } }, required: ['city'], $defs: { a: {} } };
    expect(fitInputSchema(plain)).toEqual(plain);
    expect(fitInputSchema({ properties: { a: { type: 'string' } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    expect(fitInputSchema(undefined)).toEqual({ type: 'object', properties: {} });
  });

  it('keeps a member named "__proto__" (JSON.parse makes it an own key) as a member, on both copies', () => {
    const noType = JSON.parse('{"properties":{"a":{"type":"string"}},"__proto__":{"x":1}}') as Record<string, unknown>;
    const fitted = fitInputSchema(noType);
    expect(Object.getPrototypeOf(fitted)).toBe(Object.prototype);
    expect(JSON.stringify(fitted)).toBe('{"properties":{"a":{"type":"string"}},"__proto__":{"x":1},"type":"object"}');
    const union = JSON.parse('{"__proto__":{"x":1},"oneOf":[{"type":"object","properties":{"a":{"type":"string"}}}]}') as Record<string, unknown>;
    const flattened = fitInputSchema(union);
    expect(Object.getPrototypeOf(flattened)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(flattened))).toEqual(JSON.parse('{"type":"object","__proto__":{"x":1},"properties":{"a":{"type":"string"}}}'));
  });

  it('oneOf: unites the variants, requires only what all of them require, names the forms in the description', () => {
    const out = fitInputSchema({
      description: 'A project.',
      additionalProperties: false,
      oneOf: [
        { type: 'object', properties: { id: { type: 'string' }, ref: { type: 'string' } }, required: ['id', 'ref'] },
        { type: 'object', title: 'By path', properties: { full_path: { type: 'string' }, ref: { type: 'string' } }, required: ['full_path', 'ref'] },
      ],
    });
    expect(out).toEqual({
      type: 'object',
      description: 'A project.\n\nArguments take exactly one of these forms: {id, ref} | {full_path, ref} (By path).',
      additionalProperties: false,
      properties: { id: { type: 'string' }, ref: { type: 'string' }, full_path: { type: 'string' } },
      required: ['ref'],
    });
  });

  it('anyOf: a name defined differently by the variants takes either definition; non-object variants are skipped', () => {
    const out = fitInputSchema({
      anyOf: [
        { properties: { kind: { const: 'a' }, a: { type: 'number' } }, required: ['kind'] },
        { properties: { kind: { const: 'b' } }, required: ['kind'] },
        { type: 'null' },
      ],
    });
    expect(out.properties).toEqual({ kind: { anyOf: [{ const: 'a' }, { const: 'b' }] }, a: { type: 'number' } });
    expect(out.required).toEqual(['kind']);
    expect(out.description).toBe('Arguments take at least one of these forms: {kind} | {kind}.');
  });

  it('allOf: merges the branches with the root, requirements add up, conflicting definitions must both hold', () => {
    const out = fitInputSchema({
      type: 'object',
      properties: { mode: { type: 'string' } },
      required: ['mode'],
      allOf: [{ properties: { a: { type: 'string' }, mode: { enum: ['x', 'y'] } }, required: ['a'] }, { properties: { b: { type: 'boolean' } } }],
    });
    expect(out).toEqual({
      type: 'object',
      properties: { mode: { allOf: [{ type: 'string' }, { enum: ['x', 'y'] }] }, a: { type: 'string' }, b: { type: 'boolean' } },
      required: ['mode', 'a'],
    });
  });

  it('reads variants given as local $refs and keeps $defs for the refs nested below', () => {
    const $defs = {
      ByUrl: { type: 'object', properties: { url: { type: 'string' }, opts: { $ref: '#/$defs/Opts' } }, required: ['url'] },
      Opts: { type: 'object', properties: { depth: { type: 'integer' } } },
    };
    const out = fitInputSchema({ oneOf: [{ $ref: '#/$defs/ByUrl' }, { $ref: '#/definitions/missing' }, { $ref: '#/$defs/__proto__' }], $defs });
    expect(out.$defs).toEqual($defs);
    expect(out.properties).toEqual({ url: { type: 'string' }, opts: { $ref: '#/$defs/Opts' } });
    expect(out.required).toBeUndefined();
  });

  it('never leaves a root combinator, always types the root object, and is stable (property)', () => {
    const leaf = fc.constantFrom<unknown>({ type: 'string' }, { type: 'integer' }, { const: 'k' }, { $ref: '#/$defs/d' }, 5, null, { type: 'null' });
    const schema = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record(
          {
            type: fc.constantFrom<unknown>('object', 'string', ['object', 'null'], undefined),
            properties: fc.dictionary(fc.constantFrom('a', 'b', 'c', '__proto__', 'ref'), tie('node'), { maxKeys: 3 }),
            required: fc.subarray(['a', 'b', 'c', 'x']),
            description: fc.string({ maxLength: 8 }),
            oneOf: fc.array(tie('node'), { maxLength: 3 }),
            anyOf: fc.array(tie('node'), { maxLength: 3 }),
            allOf: fc.array(tie('node'), { maxLength: 3 }),
          },
          { requiredKeys: [] },
        ),
      ),
    })).node;
    const root = schema.filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null && !Array.isArray(s))
      .map((s): Record<string, unknown> => ({ ...s, $defs: { d: { type: 'object', properties: { d1: { type: 'string' } }, oneOf: [{ required: ['d1'] }] } } }));
    fc.assert(
      fc.property(root, (s) => {
        const out = fitInputSchema(s);
        expect(out.type).toBe('object');
        for (const k of COMBINATORS) expect(out).not.toHaveProperty(k);
        const props = out.properties as Record<string, unknown> | undefined;
        if (props !== undefined) expect(typeof props === 'object' && props !== null && !Array.isArray(props)).toBe(true);
        for (const name of Object.keys((s.properties as object | undefined) ?? {})) expect(Object.hasOwn(props ?? {}, name)).toBe(true);
        expect(fitInputSchema(out)).toEqual(out);
        expect(() => JSON.stringify(out)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it('stays cheap and finite on deep nesting', () => {
    let s: Record<string, unknown> = { properties: { leaf: { type: 'string' } } };
    for (let i = 0; i < 200; i++) s = { oneOf: [s, { properties: { [`p${i}`]: { type: 'string' } } }] };
    const out = fitInputSchema(s);
    expect(out.type).toBe('object');
    expect(out).not.toHaveProperty('oneOf');
  });
});
