import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeGeminiSchema } from '../../src/providers/gemini-schema.js';

const BANNED = ['$schema', 'additionalProperties', 'const', 'exclusiveMinimum', 'exclusiveMaximum', 'propertyNames', 'patternProperties', 'multipleOf', 'uniqueItems', '$ref', '$defs', 'definitions', 'allOf', 'oneOf', 'not', '$id', 'examples'];
const ALLOWED = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'minItems', 'maxItems', 'properties', 'required', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'anyOf', 'default', 'example', 'propertyOrdering']);

/** Visit every schema position (not property names, which are the user's). */
function visitSchemas(schema: unknown, fn: (s: Record<string, unknown>) => void, depth = 0): number {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return depth;
  const s = schema as Record<string, unknown>;
  fn(s);
  let max = depth;
  if (s.properties && typeof s.properties === 'object') for (const sub of Object.values(s.properties)) max = Math.max(max, visitSchemas(sub, fn, depth + 1));
  if (s.items) max = Math.max(max, visitSchemas(s.items, fn, depth + 1));
  if (Array.isArray(s.anyOf)) for (const sub of s.anyOf) max = Math.max(max, visitSchemas(sub, fn, depth + 1));
  return max;
}

const leafType = fc.constantFrom('string', 'number', 'integer', 'boolean', 'null', 'object', 'array');
const keywordJunk = fc.record(
  {
    $schema: fc.constant('https://json-schema.org/draft/2020-12/schema'),
    additionalProperties: fc.oneof(fc.boolean(), fc.constant({ type: 'string' })),
    const: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
    exclusiveMinimum: fc.integer(),
    exclusiveMaximum: fc.integer(),
    propertyNames: fc.constant({ pattern: '^[a-z]+$' }),
    patternProperties: fc.constant({ '^x': { type: 'string' } }),
    multipleOf: fc.integer({ min: 1, max: 10 }),
    uniqueItems: fc.boolean(),
    format: fc.constantFrom('email', 'uri', 'date-time', 'uuid', 'int32', 'float', 'enum'),
    enum: fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 4 }),
    examples: fc.array(fc.string(), { maxLength: 2 }),
    not: fc.constant({ type: 'string' }),
    $id: fc.constant('urn:x'),
    description: fc.string(),
    minimum: fc.integer(),
  },
  { requiredKeys: [] },
);

const schemaArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(fc.oneof(leafType, fc.array(leafType, { minLength: 1, maxLength: 3 })), keywordJunk).map(([type, junk]) => ({ type, ...junk })),
    fc.tuple(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('schema'), { maxKeys: 4 }), keywordJunk, fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 })).map(([properties, junk, required]) => ({
      type: 'object',
      properties,
      required,
      ...junk,
    })),
    tie('schema').map((items) => ({ type: 'array', items })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((oneOf) => ({ oneOf })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((allOf) => ({ allOf })),
    fc.constantFrom({ $ref: '#/$defs/node' }, { $ref: '#/definitions/leaf' }, { $ref: '#' }, { $ref: '#/$defs/missing' }, { $ref: 'http://remote/schema' }),
    fc.constantFrom(true, false, null, 'junk', 42),
  ),
}))
  .schema.chain((root) =>
    fc.constant(
      typeof root === 'object' && root !== null && !Array.isArray(root)
        ? { ...root, $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' }, value: { type: 'string', const: 'v' } } } }, definitions: { leaf: { type: 'integer', multipleOf: 2 } } }
        : root,
    ),
  );

describe('Gemini schema sanitiser', () => {
  it('property: output never holds a banned keyword, only known ones, and stays bounded', () => {
    fc.assert(
      fc.property(schemaArb, (input) => {
        const out = sanitizeGeminiSchema(input);
        const depth = visitSchemas(out, (s) => {
          for (const key of Object.keys(s)) {
            expect(BANNED).not.toContain(key);
            expect(ALLOWED.has(key)).toBe(true);
          }
          if (s.enum !== undefined) {
            expect(Array.isArray(s.enum) && (s.enum as unknown[]).every((v) => typeof v === 'string')).toBe(true);
            expect((s.enum as unknown[]).length).toBeGreaterThan(0);
          }
          if (Array.isArray(s.required)) for (const r of s.required) expect(Object.keys((s.properties as object) ?? {})).toContain(r);
          if (s.format !== undefined) expect(['date-time', 'enum', 'int32', 'int64', 'float', 'double']).toContain(s.format);
        });
        expect(depth).toBeLessThan(60);
      }),
      { numRuns: 400 },
    );
  });

  it('const becomes a one-value enum; non-string values move to the description', () => {
    expect(sanitizeGeminiSchema({ const: 'a' })).toEqual({ type: 'string', enum: ['a'] });
    expect(sanitizeGeminiSchema({ type: 'integer', const: 3, description: 'n' })).toEqual({ type: 'integer', description: 'n (Allowed values: 3)' });
    expect(sanitizeGeminiSchema({ enum: [1, 2] })).toEqual({ type: 'integer', description: 'Allowed values: 1, 2' });
  });

  it('inlines $ref from $defs and definitions, keeping the description at the use site', () => {
    const out = sanitizeGeminiSchema({
      type: 'object',
      properties: { a: { $ref: '#/$defs/A', description: 'the a' }, b: { $ref: '#/definitions/B' } },
      $defs: { A: { type: 'string', format: 'email', description: 'generic' } },
      definitions: { B: { type: 'array', items: { type: 'number', exclusiveMaximum: 3 }, uniqueItems: true } },
    });
    expect(out).toEqual({ type: 'object', properties: { a: { type: 'string', description: 'the a' }, b: { type: 'array', items: { type: 'number' } } } });
  });

  it('recursive refs are cut after a bounded number of expansions', () => {
    const out = sanitizeGeminiSchema({
      $ref: '#/$defs/tree',
      $defs: { tree: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/tree' } } } } },
    });
    const json = JSON.stringify(out);
    expect(json).not.toContain('$ref');
    const depth = visitSchemas(out, () => undefined);
    expect(depth).toBeGreaterThanOrEqual(2);
    expect(depth).toBeLessThan(10);
  });

  it('mutually recursive fan-out stays small', () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 6; i++) {
      const properties: Record<string, unknown> = {};
      for (let j = 0; j < 6; j++) properties[`p${j}`] = { $ref: `#/$defs/d${j}` };
      defs[`d${i}`] = { type: 'object', properties };
    }
    const started = Date.now();
    const out = sanitizeGeminiSchema({ $ref: '#/$defs/d0', $defs: defs });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(JSON.stringify(out).length).toBeLessThan(2_000_000);
    expect(JSON.stringify(out)).not.toContain('$ref');
  });

  it('type unions and null members become nullable / anyOf', () => {
    expect(sanitizeGeminiSchema({ type: ['string', 'null'] })).toEqual({ type: 'string', nullable: true });
    expect(sanitizeGeminiSchema({ anyOf: [{ type: 'integer' }, { type: 'null' }] })).toEqual({ type: 'integer', nullable: true });
    expect(sanitizeGeminiSchema({ type: ['string', 'integer'] })).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(sanitizeGeminiSchema({ oneOf: [{ type: 'string' }, { type: 'boolean' }] })).toEqual({ anyOf: [{ type: 'string' }, { type: 'boolean' }] });
  });

  it('allOf members are merged', () => {
    expect(
      sanitizeGeminiSchema({
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'number' } }, required: ['b', 'zzz'] },
        ],
      }),
    ).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a', 'b'] });
  });

  it('keeps property names that look like keywords', () => {
    expect(sanitizeGeminiSchema({ type: 'object', properties: { const: { type: 'string' }, $ref: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { const: { type: 'string' }, $ref: { type: 'string' } },
    });
  });
});
