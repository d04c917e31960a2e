// The `if`/`then` rules of a query object schema that require more properties when one property
// has a given value: what the generated types turn into a union (`LogStreamQueryBySource`), and
// what the generation check names, so that the union's name cannot clash unseen.
import { pascalCase } from './identifiers.js';

/** One rule: when `key` is `value`, the properties `required` are required. */
export interface QueryRule {
  readonly key: string;
  readonly value: unknown;
  readonly required: readonly string[];
}

/** The rules of a query schema, all on one property of an `enum`, and that enum's values. */
export interface QueryRules {
  readonly key: string;
  readonly values: readonly unknown[];
  readonly rules: readonly QueryRule[];
}

type Schema = Record<string, unknown>;

/**
 * The rules of `schema` (its own `if`/`then` and those of its `allOf`), when every one is of the
 * form `if: {properties: {k: {const: v}}, required: [k]}, then: {required: [...]}` on one property
 * `k` whose schema is an `enum`; else undefined (no union is made).
 */
export function queryRules(schema: Schema): QueryRules | undefined {
  const all = [schema, ...((schema['allOf'] as Schema[] | undefined) ?? [])].filter((rule) => rule['if'] !== undefined);
  const rules = all.map(({ if: when, then }) => {
    const condition = when as Schema;
    const consequence = (then ?? {}) as Schema;
    const properties = (condition['properties'] ?? {}) as Record<string, Schema>;
    const [key, only] = Object.entries(properties)[0] ?? [];
    const fits =
      Object.keys(condition).every((k) => k === 'properties' || k === 'required') &&
      Object.keys(properties).length === 1 &&
      ((condition['required'] as string[] | undefined) ?? []).join() === key &&
      only?.['const'] !== undefined &&
      Object.keys(consequence).every((k) => k === 'required' || k === 'description');
    return fits
      ? { key: key!, value: only!['const'], required: (consequence['required'] as string[]) ?? [] }
      : undefined;
  });
  const key = rules[0]?.key;
  const values = key === undefined ? undefined : (schema['properties'] as Record<string, Schema>)?.[key]?.['enum'];
  if (key === undefined || rules.some((rule) => rule?.key !== key) || !Array.isArray(values)) return undefined;
  return { key, values, rules: rules as QueryRule[] };
}

/** The name of the union the rules make of the query type `typeName`: `LogStreamQueryBySource`. */
export const queryUnionName = (typeName: string, { key }: QueryRules): string => `${typeName}By${pascalCase(key)}`;
