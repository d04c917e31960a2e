// The JSON types a value of a schema may have, read from the schema as every layer that turns
// text into a value needs them: the request checker types a query value by them (`3` is a number
// where the schema allows one), and the CLI chooses how an argument is parsed. One reading, so
// that what the CLI sends is what the server reads.

type Schema = Readonly<Record<string, unknown>>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null;

/** The JSON type of a value, as a schema's `type` names it (`[1]` is an array, `1` a number). */
const typeOfValue = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'bigint' ? 'integer' : typeof value;

/** Types both lists allow; an integer is a number. */
function meet(a: readonly string[], b: readonly string[]): string[] {
  return a.flatMap((type) =>
    b.includes(type)
      ? [type]
      : (type === 'number' && b.includes('integer')) || (type === 'integer' && b.includes('number'))
        ? ['integer']
        : [],
  );
}

/**
 * The types a value of `schema` (its `$ref`s inlined) may have, without repeats: its `type`;
 * without one, those of its `oneOf`/`anyOf` members, those every typed `allOf` member allows, else
 * those of its `enum`/`const` values (`enum: [1, 2]` reads `1` as a number). Empty when the schema
 * says nothing of its type.
 * @see https://json-schema.org/draft/2020-12/json-schema-validation#section-6.1.1
 */
export function schemaTypes(schema: unknown): string[] {
  if (!isSchema(schema)) return [];
  if (schema['type'] !== undefined) return [...new Set([schema['type']].flat().map(String))];
  const members = [schema['oneOf'], schema['anyOf']].flatMap((m) => (Array.isArray(m) ? (m as unknown[]) : []));
  if (members.length > 0) return [...new Set(members.flatMap(schemaTypes))];
  const constraints = (Array.isArray(schema['allOf']) ? (schema['allOf'] as unknown[]) : [])
    .map(schemaTypes)
    .filter((types) => types.length > 0);
  if (constraints.length > 0) return [...new Set(constraints.reduce(meet))];
  const values = Array.isArray(schema['enum']) ? schema['enum'] : 'const' in schema ? [schema['const']] : [];
  return [...new Set(values.map(typeOfValue))];
}
