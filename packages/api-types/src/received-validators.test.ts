import {
  componentTypeName,
  deref,
  eventStreamData,
  loadOpenApiDocument,
  operations,
  parsePointer,
  resolveRef,
} from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import * as validators from './generated/validators/index.js';
import type { Validator } from './validator.js';

/**
 * The tolerant readers of answers (`validateReceived<Name>`), checked against the document: every
 * example answer of every operation (the JSON bodies and each event of a stream) is read as it
 * is, and with a property the document does not know; it is refused without one of its
 * schema's required properties, or with a known property of the wrong type. Nothing here names
 * a field, so a change of the document changes the cases, not this file; an answer that is not an
 * object (a list) is read as it is, and its items given the unknown property when they are objects.
 */
const document = loadOpenApiDocument();
const byName = validators as unknown as Record<string, Validator<unknown>>;

interface Case {
  readonly where: string;
  /** The component's name in the document. */
  readonly component: string;
  /** Its validators' name (`validateReceived<name>`). */
  readonly name: string;
  readonly value: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` with a property the document does not know, in each object it is or holds; undefined when it has none. */
function extended(value: unknown): unknown {
  const more = (item: Record<string, unknown>) => ({ ...item, property_of_a_later_release: { level: 'info' } });
  if (isObject(value)) return more(value);
  if (Array.isArray(value) && value.length > 0 && value.every(isObject)) return value.map(more);
  return undefined;
}

function cases(): Case[] {
  const found: Case[] = [];
  for (const { operationId, responses } of operations(document)) {
    for (const [status, { content }] of Object.entries(responses)) {
      for (const [mediaType, { media }] of Object.entries(content)) {
        const schema = media.schema as Record<string, unknown> | undefined;
        const ref = (schema?.['x-sse-event-data'] as { $ref?: string } | undefined)?.$ref ?? schema?.$ref;
        if (typeof ref !== 'string') continue;
        const component = parsePointer(decodeURIComponent(ref.slice(1))).pop()!;
        const name = componentTypeName(component);
        const values = Object.values(media.examples ?? {}).map(
          (example) => deref<{ value: unknown }>(document, example as { value: unknown }).value,
        );
        for (const value of values) {
          const items =
            mediaType === 'text/event-stream' ? eventStreamData(value as string).map((d) => JSON.parse(d)) : [value];
          for (const item of items) {
            found.push({ where: `${operationId} ${status} ${mediaType}`, component, name, value: item });
          }
        }
      }
    }
  }
  return found;
}

const all = cases();
const schemaOf = (component: string) =>
  (document.components?.schemas?.[component] ?? resolveRef(document, `#/components/schemas/${component}`)) as {
    required?: string[];
    properties?: Record<string, unknown>;
  };

/** A value of no JSON type the property allows: a nested array is no string, number, boolean, null or object. */
const WRONG_TYPE = [[]];

describe('validateReceived<Name>: the tolerant readers of answers', () => {
  it('exist for the answers of every operation, the log events included', () => {
    const names = new Set(all.map((c) => c.name));
    expect(names.size).toBeGreaterThanOrEqual(3);
    for (const name of names) expect(byName[`validateReceived${name}`], name).toBeTypeOf('function');
  });

  it.each(all.map((c) => [`${c.where}: ${c.name}`, c] as const))(
    '%s: read as it is and with an unknown property',
    (_, c) => {
      const read = byName[`validateReceived${c.name}`]!;
      const strict = byName[`validate${c.name}`]!;
      expect(read(c.value)).toBe(true);
      const more = extended(c.value);
      if (more === undefined) return;
      expect(read(more)).toBe(true);
      // The strict validator of the same schema is what the contract checks use: it refuses it.
      expect(strict(more)).toBe(false);
    },
  );

  const objects = all.filter((c): c is Case & { value: Record<string, unknown> } => isObject(c.value));
  it.each(objects.map((c) => [`${c.where}: ${c.name}`, c] as const))(
    '%s: refused without a required property or with a mistyped one',
    (_, c) => {
      const read = byName[`validateReceived${c.name}`]!;
      const { required = [], properties = {} } = schemaOf(c.component);
      for (const name of required) {
        const { [name]: _dropped, ...rest } = c.value;
        expect(read(rest), `without ${name}`).toBe(false);
        expect(read.errors?.[0]).toMatchObject({ keyword: 'required', params: { missingProperty: name } });
      }
      for (const name of Object.keys(properties)) {
        expect(read({ ...c.value, [name]: WRONG_TYPE }), `${name} mistyped`).toBe(false);
        expect(read.errors?.[0]?.instancePath.startsWith(`/${name}`)).toBe(true);
      }
    },
  );
});
