// fast-check arbitraries of VALID values, derived from the document's JSON Schemas keyword by
// keyword (fast-check brings the seed, the replay and the shrinking). Keywords that tie properties
// together (if/then, not) are not generated for: the caller drops every value the checker refuses.
import { schemaTypes } from '@browser-cloud/openapi-document';
import fc from 'fast-check';

/** An object schema (boolean schemas do not occur where the engine generates). */
export type Schema = Record<string, unknown>;

export interface ArbitraryOptions {
  /** Follows a `$ref` to the schema it names. */
  deref: (schema: unknown) => Schema;
  /** Values to mix in at an instance path (`''` for the root, `/proxy/id`): ids of the target's resources. */
  known?: Record<string, readonly unknown[] | undefined> | undefined;
}

/** The types a schema declares. */
export const typesOf = (schema: Schema) => [schema.type ?? []].flat() as string[];

const ISO_DATES = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

/** Strings whose lengths sit on the schema's bounds as often as between them. */
function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') return ISO_DATES;
  if (schema.format === 'uri') return fc.webUrl();
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(minLength, 24);
  const sized = (min: number, max: number) => fc.string({ minLength: min, maxLength: max });
  return fc.oneof(
    { arbitrary: sized(minLength, Math.min(maxLength, minLength + 24)), weight: 4 },
    { arbitrary: sized(minLength, minLength), weight: 1 },
    { arbitrary: sized(maxLength, maxLength), weight: 1 },
  );
}

function objectArbitrary(schema: Schema, options: ArbitraryOptions, at: string): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties))
    model[name] = schemaArbitrary(property, options, `${at}/${name}`);
  for (const name of required) model[name] ??= fc.constant(`contract-${name}`);
  return fc.record(model, { requiredKeys: required });
}

/** Keywords of a lower bound, and of an upper one: of two, the tighter holds. */
const LOWER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);

/**
 * `schema` with its `allOf` members' keywords in it (`allOf: [{ type: integer }, { minimum: 1 }]`
 * is `{ type: integer, minimum: 1 }`): properties and required lists joined, the tighter of two
 * bounds, the types both allow; another keyword written twice keeps its first value, and the
 * caller's checker drops what that lets through.
 */
function mergedAllOf(schema: Schema, options: ArbitraryOptions): Schema {
  const { allOf, ...own } = schema;
  const merged: Schema = { ...own };
  for (const raw of allOf as unknown[]) {
    const member = options.deref(raw);
    const flat = Array.isArray(member.allOf) ? mergedAllOf(member, options) : member;
    for (const [key, value] of Object.entries(flat)) {
      const before = merged[key];
      if (before === undefined) merged[key] = value;
      else if (key === 'properties') merged[key] = { ...(value as object), ...(before as object) };
      else if (key === 'required') merged[key] = [...new Set([...(before as string[]), ...(value as string[])])];
      else if (key === 'type') {
        const both = schemaTypes({ allOf: [{ type: before }, { type: value }] });
        merged[key] = both.length > 0 ? both : before;
      } else if (LOWER.has(key) && typeof value === 'number') merged[key] = Math.max(before as number, value);
      else if (UPPER.has(key) && typeof value === 'number') merged[key] = Math.min(before as number, value);
    }
  }
  return merged;
}

/** An arbitrary of values valid against `schema` (see the file's comment for if/then/not). */
export function schemaArbitrary(raw: unknown, options: ArbitraryOptions, at = ''): fc.Arbitrary<unknown> {
  const schema = options.deref(raw);
  const generated = generatedArbitrary(schema, options, at);
  const known = options.known?.[at];
  if (!known || known.length === 0) return generated;
  return fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, { arbitrary: generated, weight: 1 });
}

function generatedArbitrary(schema: Schema, options: ArbitraryOptions, at: string): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(branches)) return fc.oneof(...branches.map((branch) => schemaArbitrary(branch, options, at)));
  if (Array.isArray(schema.allOf)) return generatedArbitrary(mergedAllOf(schema, options), options, at);
  const ofType = (type: string | undefined): fc.Arbitrary<unknown> => {
    if (type === 'null') return fc.constant(null);
    if (type === 'boolean') return fc.boolean();
    if (type === 'integer') {
      const { minimum: min, maximum: max } = schema;
      return fc.integer({ ...(typeof min === 'number' ? { min } : {}), ...(typeof max === 'number' ? { max } : {}) });
    }
    if (type === 'number') {
      const { minimum: min, maximum: max } = schema;
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(typeof min === 'number' ? { min } : {}),
        ...(typeof max === 'number' ? { max } : {}),
      });
    }
    if (type === 'string') return stringArbitrary(schema);
    if (type === 'array') {
      const { minItems, maxItems } = schema;
      return fc.array(schemaArbitrary(schema.items ?? {}, options, `${at}/0`), {
        minLength: typeof minItems === 'number' ? minItems : 0,
        maxLength: typeof maxItems === 'number' ? maxItems : 4,
      });
    }
    if (type === 'object' || schema.properties) return objectArbitrary(schema, options, at);
    return fc.jsonValue({ maxDepth: 2 });
  };
  const types = typesOf(schema);
  return fc.oneof(...(types.length > 0 ? types : [undefined]).map(ofType));
}
