// The properties of an object schema as an instance of it holds them: its own, and those of its
// `allOf` members (`allOf: [{ $ref: Base }, { properties: … }]`, OpenAPI's way to extend one
// schema by another), `$ref`s followed. The resource model and the sandbox read items so.
import { appendPointer } from './json-pointer.js';
import { resolveNode } from './resolve-ref.js';

type Schema = Record<string, unknown>;

export interface ObjectShape {
  /** Each property's schema, `$ref`s followed, and the pointer of where it is written. */
  readonly properties: Readonly<Record<string, { readonly schema: Schema; readonly pointer: string }>>;
  /** The properties required by the schema or by any of its `allOf` members. */
  readonly required: readonly string[];
}

/**
 * The shape of the object schema `schema`, written at `pointer`. A property written twice (by the
 * schema and by a member) is the first one met, the schema's own before its members'.
 */
export function objectShape(document: unknown, schema: unknown, pointer: string): ObjectShape {
  const properties: Record<string, { schema: Schema; pointer: string }> = {};
  const required = new Set<string>();
  const seen = new Set<string>();
  const visit = (written: unknown, at: string): void => {
    const { node, pointer: where } = resolveNode(document, written as Schema, at);
    if (typeof node !== 'object' || node === null || seen.has(where)) return;
    seen.add(where);
    const own = (node['properties'] ?? {}) as Record<string, unknown>;
    for (const [name, property] of Object.entries(own)) {
      if (Object.hasOwn(properties, name)) continue;
      const resolved = resolveNode(document, property as Schema, appendPointer(where, 'properties', name));
      properties[name] = { schema: resolved.node as Schema, pointer: resolved.pointer };
    }
    for (const name of (node['required'] ?? []) as string[]) required.add(name);
    const members = Array.isArray(node['allOf']) ? (node['allOf'] as unknown[]) : [];
    for (const [i, member] of members.entries()) visit(member, appendPointer(where, 'allOf', i));
  };
  visit(schema, pointer);
  return { properties, required: [...required] };
}
