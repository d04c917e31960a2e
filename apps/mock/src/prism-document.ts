// The document as Prism is given it. Prism's router escapes a path template for a regular
// expression and then looks for `\{[^\\]+\\}` in it, so a template name with a character the
// escape marks (`{item.id}`, `{a+b}`) never matches any path, and Prism answers 404 to every
// request of that operation. Such names are renamed here, in the path and in its parameters; the
// validating front checks requests against the document as written before Prism sees them.
import { deref, type OpenApiDocument, renderOpenApiDocument } from '@browser-cloud/openapi-document';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Characters Prism's escape puts a backslash before. */
const ESCAPED = /[.*+?^${}()|[\]\\]/;

/** `document` with every path template name Prism cannot match renamed (`item.id` → `item_id_p0`), as JSON. */
export function prismDocument(document: OpenApiDocument): string {
  const copy = structuredClone(document) as Node;
  const paths = (copy['paths'] ?? {}) as Record<string, Node>;
  for (const [path, item] of Object.entries(paths)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).filter((name) => ESCAPED.test(name));
    if (names.length === 0) continue;
    const renamed = new Map(names.map((name, i) => [name, `${name.replace(/[^A-Za-z0-9_-]/g, '_')}_p${i}`]));
    /** A parameter list with the renamed path parameters written out (a `$ref` to a shared one is copied). */
    const rename = (parameters: unknown) =>
      Array.isArray(parameters)
        ? parameters.map((written: Node) => {
            const parameter = deref<Node>(copy as OpenApiDocument, written);
            const to = parameter?.['in'] === 'path' ? renamed.get(String(parameter['name'])) : undefined;
            return to === undefined ? written : { ...parameter, name: to };
          })
        : parameters;
    const fixed: Node = { ...item };
    if (item['parameters'] !== undefined) fixed['parameters'] = rename(item['parameters']);
    for (const [key, operation] of Object.entries(item)) {
      if (key !== 'parameters' && isNode(operation) && Array.isArray(operation['parameters']))
        fixed[key] = { ...operation, parameters: rename(operation['parameters']) };
    }
    delete paths[path];
    paths[
      path.replace(/\{([^}]+)\}/g, (whole, name: string) => (renamed.has(name) ? `{${renamed.get(name)}}` : whole))
    ] = fixed;
  }
  return renderOpenApiDocument(copy as OpenApiDocument);
}
