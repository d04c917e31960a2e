import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deref, loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { createDocumentValidator } from './judge.js';
import { schemaArbitrary } from './schema-arbitrary.js';

const document = loadOpenApiDocument();
const validator = createDocumentValidator(document);
const d = (node: unknown) => deref(document, node) as Record<string, unknown>;
const schema = (name: string) => `#/components/schemas/${name}`;

describe('schemaArbitrary', () => {
  it('generates values the schema accepts, reaching both length bounds', () => {
    const values = fc.sample(schemaArbitrary({ $ref: schema('RenameProfileRequest') }, { deref: d }), {
      seed: 1,
      numRuns: 200,
    }) as { name: string }[];
    for (const value of values) expect(validator.validateAt(schema('RenameProfileRequest'), value)).toEqual([]);
    const lengths = new Set(values.map((v) => [...v.name].length));
    expect(lengths).toContain(1);
    expect(lengths).toContain(255);
  });

  it('covers both oneOf branches and the null of an anyOf', () => {
    const values = fc.sample(schemaArbitrary({ $ref: schema('LoginRequest') }, { deref: d }), {
      seed: 2,
      numRuns: 300,
    }) as Record<string, any>[];
    expect(values.some((v) => v.proxy && 'id' in v.proxy)).toBe(true);
    expect(values.some((v) => v.proxy && 'name' in v.proxy)).toBe(true);
    expect(values.some((v) => v.browser_telemetry === null)).toBe(true);
    expect(values.some((v) => v.browser_telemetry?.enabled === false && !('browser' in v.browser_telemetry))).toBe(
      true,
    );
  });

  it('generates within the bounds of a number, and of an allOf whose members each say part of the schema', async () => {
    const { createAjv } = await import('@browser-cloud/openapi-document');
    const schemas = [
      { type: 'number', minimum: 0, maximum: 1 },
      { allOf: [{ type: 'integer' }, { minimum: 1 }, { maximum: 5 }] },
      {
        allOf: [
          { type: 'number', maximum: 10 },
          { type: 'integer', minimum: 8, maximum: 20 },
        ],
      },
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string', minLength: 2 } }, required: ['a'] },
          { properties: { b: { allOf: [{ type: 'boolean' }] } }, required: ['b'] },
        ],
      },
    ];
    for (const written of schemas) {
      const validate = createAjv().compile(written);
      const values = fc.sample(schemaArbitrary(written, { deref: d }), { seed: 3, numRuns: 100 });
      // Every value, not most: no checker has to drop any.
      for (const value of values)
        expect(validate(value), `${JSON.stringify(value)} of ${JSON.stringify(written)}`).toBe(true);
    }
  });

  it('generates the formats the document asserts', () => {
    for (const value of fc.sample(schemaArbitrary({ $ref: schema('LoginResponse') }, { deref: d }), {
      seed: 3,
      numRuns: 50,
    })) {
      expect(validator.validateAt(schema('LoginResponse'), value)).toEqual([]);
    }
  });

  it('prefers known values at their instance path, and is reproducible by seed', () => {
    const arbitrary = schemaArbitrary(
      { $ref: schema('RenameProfileRequest') },
      { deref: d, known: { '/name': ['taken'] } },
    );
    const first = fc.sample(arbitrary, { seed: 4, numRuns: 40 });
    expect(first.filter((v) => (v as { name: string }).name === 'taken').length).toBeGreaterThan(10);
    expect(fc.sample(arbitrary, { seed: 4, numRuns: 40 })).toEqual(first);
  });
});
