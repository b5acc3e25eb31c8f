import { describe, expect, it } from 'vitest';
import { fitFunctionSchema } from '../../src/providers/openai-tool-schema.js';

describe('fitFunctionSchema', () => {
  it('returns the very same object when OpenAI would take it', () => {
    const schema = { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } }, b: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, required: ['a'] };
    expect(fitFunctionSchema(schema)).toBe(schema);
    expect(fitFunctionSchema(undefined)).toBeUndefined();
  });

  it('fills items and drops a non-array required wherever they sit, without editing the input', () => {
    const schema = {
      type: 'object',
      properties: { list: { anyOf: [{ type: 'array' }, { type: 'null' }] }, map: { type: 'object', additionalProperties: { type: 'array' } } },
      $defs: { Row: { type: 'object', properties: { cells: { type: 'array', items: { type: 'array' } } }, required: null } },
    };
    const before = structuredClone(schema);
    expect(fitFunctionSchema(schema)).toEqual({
      type: 'object',
      properties: { list: { anyOf: [{ type: 'array', items: {} }, { type: 'null' }] }, map: { type: 'object', additionalProperties: { type: 'array', items: {} } } },
      $defs: { Row: { type: 'object', properties: { cells: { type: 'array', items: { type: 'array', items: {} } } } } },
    });
    expect(schema).toEqual(before);
  });

  it('only an object root gets properties (the refusal names context=()); a nested free-form object stays free-form', () => {
    expect(fitFunctionSchema({ type: 'object', properties: { opts: { type: 'object' } } })).toEqual({ type: 'object', properties: { opts: { type: 'object' } } });
    expect(fitFunctionSchema({ type: 'object', additionalProperties: false })).toEqual({ type: 'object', additionalProperties: false, properties: {} });
  });

  it('a schema nested beyond any real tool is sent as it is, without overflowing the stack', () => {
    let deep: Record<string, unknown> = { type: 'array' };
    for (let i = 0; i < 10_000; i++) deep = { type: 'array', items: deep };
    expect(() => fitFunctionSchema({ type: 'object', properties: { deep } })).not.toThrow();
  });
});
