// Parameter values as a server reads them: the text of a path segment, a header or a query,
// taken apart as the parameter's `style`/`explode` say and typed as its schema says. The client
// writes them the same way (packages/client/src/parameters.ts); the request checker reads them.
import type { OpenApiDocument } from './document-types.js';
import type { OperationParameter } from './operations.js';
import { inlineRefs } from './resolve-ref.js';
import { schemaTypes } from './schema-types.js';

type Schema = Readonly<Record<string, unknown>>;

/** A value that cannot be read at all (bad percent-encoding): the part's problem, in words. */
export class ParameterTextError extends Error {}

/** What a parameter's schema says of the shape of its value: a scalar, an array of items or an object of properties. */
interface Shape {
  readonly kind: 'scalar' | 'array' | 'object';
  readonly schema: Schema;
}

function shapeOf(document: OpenApiDocument, parameter: OperationParameter): Shape {
  const schema = (parameter.schema ? inlineRefs(document, parameter.schema.schema) : {}) as Schema;
  const types = schemaTypes(schema);
  const kind = types.includes('array') ? 'array' : types.includes('object') ? 'object' : 'scalar';
  return { kind, schema };
}

/**
 * Text as the schema's type: a number for an integer or number schema, `true`/`false` for a
 * boolean one, `null` for the text `null` where null is allowed; anything else stays text, for the
 * schema to refuse it (`page=two` is refused as "must be integer", naming the parameter).
 */
export function typedText(schema: Schema | undefined, text: string): unknown {
  const types = schemaTypes(schema);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
    return Number(text);
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === 'null') return null;
  return text;
}

const itemSchema = (schema: Schema) => schema['items'] as Schema | undefined;
const propertySchema = (schema: Schema, name: string) =>
  Object.hasOwn((schema['properties'] as object | undefined) ?? {}, name)
    ? (schema['properties'] as Record<string, Schema>)[name]
    : undefined;

/** Percent-decoded text; `shown` is what the error quotes (the whole `name=value` of a query). */
const decode = (text: string, plus: boolean, shown = text): string => {
  try {
    return decodeURIComponent(plus ? text.replaceAll('+', ' ') : text);
  } catch {
    throw new ParameterTextError(`${shown}: is not valid percent-encoding`);
  }
};

/** Pairs `k,v,k,v` or `k=v,k=v` into an object, each value typed by its property. */
function objectOf(schema: Schema, parts: readonly string[], exploded: boolean): Record<string, unknown> {
  const object: Record<string, unknown> = Object.create(null);
  const pairs = exploded
    ? parts.map((part) => part.split(/=(.*)/s) as [string, string?])
    : parts.flatMap((_, i) => (i % 2 === 0 ? [[parts[i], parts[i + 1]] as [string, string?]] : []));
  for (const [key = '', value = ''] of pairs) object[key] = typedText(propertySchema(schema, key), value);
  return { ...object };
}

/**
 * A path segment (still percent-encoded) or a header value in the `simple` style: an array's
 * items or an object's members separated by commas, each typed by its schema.
 */
export function readSimpleValue(
  document: OpenApiDocument,
  parameter: OperationParameter,
  text: string,
  encoded: boolean,
): unknown {
  const { kind, schema } = shapeOf(document, parameter);
  const read = (part: string) => (encoded ? decode(part, false) : part.trim());
  if (kind === 'scalar') return typedText(schema, read(text));
  const parts = text === '' ? [] : text.split(',').map(read);
  if (kind === 'array') return parts.map((part) => typedText(itemSchema(schema), part));
  return objectOf(schema, parts, parameter.serialization.explode);
}

const DELIMITERS: Readonly<Record<string, RegExp>> = {
  form: /,/,
  spaceDelimited: /%20|\+| /,
  pipeDelimited: /\||%7C/i,
};

/**
 * A query string read as its parameters' styles say: a repeated or delimited array, a deepObject
 * (`filter[kind]=x`), a form object (exploded: its properties as names); each value typed by its
 * schema. A name no parameter takes is kept as written (a repeated one as an array) for the
 * closed query schema to refuse.
 * @throws ParameterTextError for percent-encoding that is not UTF-8.
 */
export function readQueryValues(
  document: OpenApiDocument,
  parameters: readonly OperationParameter[],
  search: string,
): Record<string, unknown> {
  const pairs = search
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [name = '', value = ''] = pair.split(/=(.*)/s);
      // Each value decoded once, now, for the error to quote the pair; delimited ones split first.
      decode(value, true, pair);
      return { name: decode(name, true, pair), raw: value, used: false };
    });
  const query: Record<string, unknown> = Object.create(null);
  const named = new Set(parameters.map((p) => p.name));
  const take = (test: (name: string) => boolean) =>
    pairs.filter((pair) => !pair.used && test(pair.name)).map((pair) => Object.assign(pair, { used: true }));
  for (const parameter of parameters) {
    const { kind, schema } = shapeOf(document, parameter);
    const { style, explode } = parameter.serialization;
    if (style === 'deepObject') {
      const prefix = `${parameter.name}[`;
      const members = take((name) => name.startsWith(prefix) && name.endsWith(']'));
      if (members.length === 0) continue;
      const object: Record<string, unknown> = {};
      for (const { name, raw } of members) {
        const key = name.slice(prefix.length, -1);
        Object.defineProperty(object, key, {
          value: typedText(propertySchema(schema, key), decode(raw, true)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      query[parameter.name] = object;
    } else if (kind === 'object' && explode) {
      // Its properties are the names of the query (`?x=1&y=2` for `point`), but another parameter's.
      const members = take((name) => propertySchema(schema, name) !== undefined && !named.has(name));
      if (members.length > 0) {
        query[parameter.name] = objectOf(
          schema,
          members.map(({ name, raw }) => `${name}=${decode(raw, true)}`),
          true,
        );
      }
    } else {
      const given = take((name) => name === parameter.name);
      if (given.length === 0) continue;
      if (kind === 'scalar' || (explode && kind === 'array')) {
        const items = given.map(({ raw }) =>
          typedText(kind === 'array' ? itemSchema(schema) : schema, decode(raw, true)),
        );
        // A scalar given twice stays an array, which its schema refuses.
        query[parameter.name] = kind === 'array' || items.length > 1 ? items : items[0];
      } else {
        const parts = given.flatMap(({ raw }) => (raw === '' ? [] : raw.split(DELIMITERS[style] ?? /,/)));
        const decoded = parts.map((part) => decode(part, true));
        query[parameter.name] =
          kind === 'array'
            ? decoded.map((part) => typedText(itemSchema(schema), part))
            : objectOf(schema, decoded, false);
      }
    }
  }
  for (const { name, raw } of take(() => true)) {
    const value = decode(raw, true);
    query[name] = Object.hasOwn(query, name) ? [query[name], value].flat() : value;
  }
  return { ...query };
}
