// Stand-in for @browser-cloud/openapi-document until it is merged (same names, same meaning).
import { OPENAPI_PATH, loadOpenApiDocument } from '../../../scripts/lib/openapi-document.mjs';

export { OPENAPI_PATH, loadOpenApiDocument };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function resolveRef(document, ref) {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

function deref(document, node) {
  let current = node;
  while (current && typeof current.$ref === 'string') current = resolveRef(document, current.$ref);
  return current;
}

export function findOperation(document, operationId) {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation?.operationId !== operationId) continue;
      const parameters = (operation.parameters ?? []).map((raw) => {
        const parameter = deref(document, raw);
        return {
          name: parameter.name,
          in: parameter.in,
          required: parameter.in === 'path' || parameter.required === true,
          parameter,
          schema: { schema: deref(document, parameter.schema) },
        };
      });
      const body = operation.requestBody && deref(document, operation.requestBody);
      const requestBody = body && {
        required: body.required === true,
        content: Object.fromEntries(
          Object.entries(body.content).map(([type, media]) => [
            type,
            { schema: { schema: deref(document, media.schema) } },
          ]),
        ),
      };
      return { operationId, method, path, operation, parameters, requestBody };
    }
  }
  throw new Error(`the OpenAPI document has no operation "${operationId}"`);
}

export function inlineRefs(document, schema) {
  if (Array.isArray(schema)) return schema.map((item) => inlineRefs(document, item));
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema;
  const out = typeof $ref === 'string' ? { ...inlineRefs(document, resolveRef(document, $ref)) } : {};
  for (const [key, value] of Object.entries(rest)) {
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, inlineRefs(document, sub)]))
        : inlineRefs(document, value);
  }
  return out;
}
