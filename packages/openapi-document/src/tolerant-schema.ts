/** Schema keywords whose value is data, not schemas: what they hold is kept as written. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'example', 'examples']);

/**
 * A copy of `schema` as a tolerant reader takes it: every `additionalProperties: false` (and
 * `unevaluatedProperties: false`), at any depth, is left out, so an object may carry properties
 * the document does not know yet; every other rule stays. The client, the CLI and the MCP server
 * read responses so, and the service's next additive release does not break them; the contract
 * checks keep the strict schemas. A property called `additionalProperties` is kept, and so is
 * what an `enum`, a `const`, a `default` or an example holds: data, not schemas.
 */
export function allowingUnknownProperties<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(allowingUnknownProperties) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'additionalProperties' || key === 'unevaluatedProperties') && value === false) continue;
    kept[key] = DATA_KEYWORDS.has(key)
      ? value
      : key === 'properties' && value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value).map(([name, property]) => [name, allowingUnknownProperties(property)]),
          )
        : allowingUnknownProperties(value);
  }
  return kept as T;
}
