import { describe, expect, it } from 'vitest';
import { fitOutputSchema } from '../../../src/protocols/messages/output-schema.js';

describe('fitOutputSchema (Anthropic structured output subset)', () => {
  it('closes every object and keeps accepted keywords', () => {
    expect(
      fitOutputSchema({
        type: 'object',
        properties: { a: { type: 'object', properties: { b: { type: 'string', format: 'date' } }, additionalProperties: true } },
        required: ['a'],
        $defs: { d: { type: 'object', properties: {} } },
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
    expect(Object.keys(out.properties as object)).toEqual(['__proto__']);
    expect(JSON.stringify(out)).toBe('{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}');
  });
});
