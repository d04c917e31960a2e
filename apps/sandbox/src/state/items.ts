// An item of a resource as the document describes it: made from a request body, the schema's
// defaults and examples, and the fields a server fills (its id, its timestamps).
import { randomBytes } from 'node:crypto';
import { objectShape, type OpenApiDocument, type Resource } from '@browser-cloud/openapi-document';

type Schema = Record<string, unknown>;

/** The item schema's properties (its `allOf` members' included), `$ref`s followed, and its required ones. */
function shapeOf(document: OpenApiDocument, resource: Resource) {
  if (resource.schema === undefined) return { properties: {} as Record<string, Schema>, required: [] as string[] };
  const shape = objectShape(document, resource.schema.schema, resource.schema.pointer);
  const properties = Object.fromEntries(Object.entries(shape.properties).map(([name, p]) => [name, p.schema]));
  return { properties, required: [...shape.required] };
}

const isDateTime = (property: Schema) => property['format'] === 'date-time';
/** A timestamp the server sets when it creates an item (`created_at`, `createdAt`, `created`). */
const isCreatedStamp = (name: string, property: Schema) => isDateTime(property) && /^created/i.test(name);
/** A timestamp the server sets whenever the item changes (`updated_at`, `modified_at`). */
const isUpdatedStamp = (name: string, property: Schema) => isDateTime(property) && /^(updated|modified)/i.test(name);

/** A property's example: its own, else the one the resource's examples show. */
function exampleOf(resource: Resource, name: string, property: Schema): unknown {
  const examples = property['examples'];
  if (Array.isArray(examples) && examples.length > 0) return structuredClone(examples[0]);
  if ('example' in property) return structuredClone(property['example']);
  const shown = resource.examples.find((item) => item[name] !== undefined);
  return shown === undefined ? undefined : structuredClone(shown[name]);
}

/** Crockford's base 32, as ULIDs write ids (`prof_01HZY5C7…`). */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/**
 * A new id: with the prefix the resource's examples show or, where the id's schema is an integer,
 * a random one within its bounds (1 to 2³¹ − 1 when it has none).
 */
export function newId(resource: Resource, property: Schema = {}): string | number {
  if ([property['type']].flat().includes('integer')) {
    const bound = (key: string, fallback: number) =>
      typeof property[key] === 'number' ? Math.ceil(property[key] as number) : fallback;
    const low = Math.max(bound('minimum', 1), 1);
    const high = Math.max(Math.min(bound('maximum', 2 ** 31 - 1), 2 ** 31 - 1), low);
    return low + (randomBytes(4).readUInt32BE() % (high - low + 1));
  }
  const random = [...randomBytes(26)].map((byte) => BASE32[byte % 32]).join('');
  return `${resource.idPrefix}${random}`;
}

/**
 * `given`, with what the schema requires and `given` lacks: the id, a timestamp (`at`), the
 * default, else the example. What has none of these stays missing, for the response check to name.
 */
export function completeItem(
  document: OpenApiDocument,
  resource: Resource,
  given: Record<string, unknown>,
  at: string,
): Record<string, unknown> {
  const { properties, required } = shapeOf(document, resource);
  const item: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (given[name] !== undefined) item[name] = given[name];
    else if (name === resource.idField) item[name] = newId(resource, property);
    else if (isCreatedStamp(name, property) || isUpdatedStamp(name, property)) item[name] = at;
    else if ('default' in property) item[name] = structuredClone(property['default']);
    else if (required.includes(name)) {
      const example = exampleOf(resource, name, property);
      if (example !== undefined) item[name] = example;
    }
  }
  // What the schema does not declare is kept too (a resource without a schema); answers leave it out.
  for (const [name, value] of Object.entries(given)) if (!(name in item)) item[name] = value;
  return item;
}

/** The body's properties the item declares, but its id: what a create, a merge or a replace may set. */
function settable(document: OpenApiDocument, resource: Resource, body: unknown): Record<string, unknown> {
  const { properties } = shapeOf(document, resource);
  const given = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(given).filter(([name]) => name !== resource.idField && Object.hasOwn(properties, name)),
  );
}

/** A new item from a create's body: a new id, timestamps now, the rest from the body, defaults and examples. */
export function createdItem(document: OpenApiDocument, resource: Resource, body: unknown, at: string) {
  return completeItem(document, resource, settable(document, resource, body), at);
}

/** `current` with the body's properties merged onto it (PATCH), its change timestamps now. */
export function mergedItem(
  document: OpenApiDocument,
  resource: Resource,
  current: Record<string, unknown>,
  body: unknown,
  at: string,
): Record<string, unknown> {
  const { properties } = shapeOf(document, resource);
  const stamps = Object.entries(properties).filter(([name, property]) => isUpdatedStamp(name, property));
  return { ...current, ...settable(document, resource, body), ...Object.fromEntries(stamps.map(([n]) => [n, at])) };
}

/** The item the body replaces `current` with (PUT): the same id and creation time, the rest anew. */
export function replacedItem(
  document: OpenApiDocument,
  resource: Resource,
  current: Record<string, unknown>,
  body: unknown,
  at: string,
): Record<string, unknown> {
  const { properties } = shapeOf(document, resource);
  const kept = Object.entries(properties)
    .filter(([name, property]) => name === resource.idField || isCreatedStamp(name, property))
    .map(([name]) => [name, current[name]]);
  return completeItem(document, resource, { ...settable(document, resource, body), ...Object.fromEntries(kept) }, at);
}

/** The first `x-unique` property whose value `candidate` shares with one of `others`, and that value. */
export function takenValue(
  resource: Resource,
  candidate: Record<string, unknown>,
  others: readonly Record<string, unknown>[],
): { field: string; value: unknown } | undefined {
  for (const field of resource.unique) {
    const value = candidate[field];
    if (value === undefined || value === null) continue;
    if (others.some((other) => other[field] === value)) return { field, value };
  }
  return undefined;
}
