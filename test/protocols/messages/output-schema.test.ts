import { describe, expect, it } from 'vitest';
import { fitOutputSchema } from '../../../src/protocols/messages/output-schema.js';

describe('fitOutputSchema (Anthropic structured output subset)', () => {
  it('closes every object and keeps accepted keywords', () => {
    expect(
      fitOutputSchema({
        type: 'object',
        properties: { a: { type: 'object', properties: { b: { type: 'string', format: 'date' } } } },
        required: ['a'],
        $defs: { d: { type: 'object', properties: {}, additionalProperties: false } },
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'string', format: 'date' } }, additionalProperties: false } },
      required: ['a'],
      $defs: { d: { type: 'object', properties: {}, additionalProperties: false } },
      additionalProperties: false,
    });
  });

  it('moves unsupported constraints into the description instead of dropping them', () => {
    expect(fitOutputSchema({ type: 'integer', minimum: 1, maximum: 9, description: 'n' })).toEqual({ type: 'integer', description: 'n\n\n{minimum: 1, maximum: 9}' });
    expect(fitOutputSchema({ type: 'array', items: { type: 'number' }, minItems: 1, maxItems: 3 })).toEqual({ type: 'array', items: { type: 'number' }, minItems: 1, description: '{maxItems: 3}' });
  });

  it('spells oneOf as anyOf, tolerates odd input and keeps a property named __proto__', () => {
    expect(fitOutputSchema({ oneOf: [{ type: 'string' }, 5] })).toEqual({ anyOf: [{ type: 'string' }, {}] });
    const props = JSON.parse('{"__proto__":{"type":"string"}}') as Record<string, unknown>;
    const out = fitOutputSchema({ type: 'object', properties: props });
    expect(Object.keys(out?.properties as object)).toEqual(['__proto__']);
    expect(JSON.stringify(out)).toBe('{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}');
  });

  it('reports a schema unfit when closing an object would forbid answers it allows', () => {
    const map = { type: 'object', additionalProperties: { type: 'number' } };
    expect(fitOutputSchema({ type: 'object', properties: { scores: map } })).toBeUndefined();
    expect(fitOutputSchema({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true })).toBeUndefined();
    expect(fitOutputSchema({ type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: {} })).toBeUndefined();
    expect(fitOutputSchema({ type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false })).toBeUndefined();
    // An object that declares no properties and does not close itself is any object at all.
    expect(fitOutputSchema({ type: 'object', properties: { meta: { type: 'object' } } })).toBeUndefined();
    // Deep: inside array items, anyOf branches and $defs.
    expect(fitOutputSchema({ type: 'array', items: map })).toBeUndefined();
    expect(fitOutputSchema({ anyOf: [{ type: 'string' }, map] })).toBeUndefined();
    expect(fitOutputSchema({ type: 'object', properties: { a: { $ref: '#/$defs/m' } }, $defs: { m: map } })).toBeUndefined();
  });

  it('reports allOf over objects unfit: each closed branch would forbid the keys of the others', () => {
    const a = { type: 'object', properties: { a: { type: 'string' } } };
    const b = { type: 'object', properties: { b: { type: 'string' } } };
    expect(fitOutputSchema({ allOf: [a, b] })).toBeUndefined();
    expect(fitOutputSchema({ allOf: [{ $ref: '#/$defs/a' }, b], $defs: { a } })).toBeUndefined();
    expect(fitOutputSchema({ ...a, allOf: [b] })).toBeUndefined();
    // One object beside a plain annotation narrows nothing.
    expect(fitOutputSchema({ allOf: [a, { description: 'x' }] })).toEqual({ allOf: [{ ...a, additionalProperties: false }, { description: 'x' }] });
  });

  it('keywords whose loss only widens what is allowed still go into the description', () => {
    expect(fitOutputSchema({ type: 'object', properties: { a: { type: 'string' } }, minProperties: 1, additionalProperties: false })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      description: '{minProperties: 1}',
      additionalProperties: false,
    });
    expect(fitOutputSchema({ type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: false,
    });
  });
});
