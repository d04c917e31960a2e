// The document as Prism is given it. Prism's router escapes a path template for a regular
// expression and then looks for `\{[^\\]+\\}` in it, so a template name with a character the
// escape marks (`{item.id}`, `{a+b}`) never matches any path, and Prism answers 404 to every
// request of that operation. Such names are renamed here, in the path and in its parameters; the
// validating front checks requests against the document as written before Prism sees them.
// Prism also types a parameter's text by its schema's `type` alone, so a value whose schema has
// none (`oneOf: [boolean, integer]`, an `enum` or a `const`) stays text and is refused
// (`since=true` got the 400 example): such a schema is left out of Prism's copy, as the front
// has checked the value already.
import { deref, type OpenApiDocument, renderOpenApiDocument } from '@browser-cloud/openapi-document';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Characters Prism's escape puts a backslash before. */
const ESCAPED = /[.*+?^${}()|[\]\\]/;

/** A parameter Prism types and checks as the front does: one whose schema has no `type` gets none. */
function typedForPrism(document: OpenApiDocument, written: Node): Node {
  const parameter = deref<Node>(document, written);
  const schema = isNode(parameter?.['schema']) ? deref<Node>(document, parameter['schema'] as Node) : undefined;
  return isNode(schema) && schema['type'] === undefined ? { ...parameter, schema: {} } : written;
}

/** Each parameter list of `item` (its own and its operations') mapped by `map`. */
function mapParameters(item: Node, map: (parameter: Node) => Node): Node {
  const each = (parameters: unknown) => (Array.isArray(parameters) ? parameters.map(map) : parameters);
  const fixed: Node = { ...item };
  if (item['parameters'] !== undefined) fixed['parameters'] = each(item['parameters']);
  for (const [key, operation] of Object.entries(item)) {
    if (key !== 'parameters' && isNode(operation) && Array.isArray(operation['parameters']))
      fixed[key] = { ...operation, parameters: each(operation['parameters']) };
  }
  return fixed;
}

/**
 * `document` as JSON, with every path template name Prism cannot match renamed (`item.id` →
 * `item_id_p0`) and no schema on a parameter whose schema has no `type`.
 */
export function prismDocument(document: OpenApiDocument): string {
  const copy = structuredClone(document) as Node;
  const paths = (copy['paths'] ?? {}) as Record<string, Node>;
  for (const [path, item] of Object.entries(paths))
    paths[path] = mapParameters(item, (parameter) => typedForPrism(copy as OpenApiDocument, parameter));
  for (const [path, item] of Object.entries(paths)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).filter((name) => ESCAPED.test(name));
    if (names.length === 0) continue;
    const renamed = new Map(names.map((name, i) => [name, `${name.replace(/[^A-Za-z0-9_-]/g, '_')}_p${i}`]));
    // The renamed path parameters written out (a `$ref` to a shared one is copied).
    const fixed = mapParameters(item, (written) => {
      const parameter = deref<Node>(copy as OpenApiDocument, written);
      const to = parameter?.['in'] === 'path' ? renamed.get(String(parameter['name'])) : undefined;
      return to === undefined ? written : { ...parameter, name: to };
    });
    delete paths[path];
    paths[
      path.replace(/\{([^}]+)\}/g, (whole, name: string) => (renamed.has(name) ? `{${renamed.get(name)}}` : whole))
    ] = fixed;
  }
  return renderOpenApiDocument(copy as OpenApiDocument);
}
