/**
 * A copy of `schema` as a tolerant reader takes it: every `additionalProperties: false` (and
 * `unevaluatedProperties: false`), at any depth, is left out, so an object may carry properties
 * the document does not know yet; every other rule stays. The client, the CLI and the MCP server
 * read responses so, and the service's next additive release does not break them; the contract
 * checks keep the strict schemas. A property called `additionalProperties` is kept.
 */
export function allowingUnknownProperties<T>(schema: T): T {
  return relax(schema) as T;
}

function relax(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relax);
  if (node === null || typeof node !== 'object') return node;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'additionalProperties' || key === 'unevaluatedProperties') && value === false) continue;
    kept[key] =
      key === 'properties' && value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, relax(property)]))
        : relax(value);
  }
  return kept;
}
