import type { FastifySchema } from 'fastify';
import type { OpenApiDocument, OpenApiOperation, OpenApiParameter } from './document.js';

/** The `$id` under which the whole document is registered with Ajv. */
export const DOCUMENT_ID = 'openapi.json';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Where an operation lives in the document. */
export interface LocatedOperation {
  path: string;
  method: (typeof METHODS)[number];
  operation: OpenApiOperation;
  /** The path in Fastify's syntax: `/profiles/:id_or_name`. */
  fastifyPath: string;
}

/** Finds an operation by its `operationId`. @throws when the document has no such operation. */
export function locateOperation(document: OpenApiDocument, operationId: string): LocatedOperation {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as OpenApiOperation | undefined;
      if (operation?.operationId === operationId) {
        return { path, method, operation, fastifyPath: path.replace(/\{([^}]+)\}/g, ':$1') };
      }
    }
  }
  throw new Error(`the OpenAPI document has no operation "${operationId}"`);
}

/**
 * Fastify's route schema for an operation, made of `$ref`s into the registered document: the
 * validators check the document's own schemas, never a copy.
 *
 * @param querySchema a JSON pointer to a schema of the whole query object, for operations
 *   whose query rules span several parameters (the log stream's `LogStreamQuery`).
 */
export function routeSchema(document: OpenApiDocument, located: LocatedOperation, querySchema?: string): FastifySchema {
  const { path, method, operation } = located;
  const base = `/paths/${escapeToken(path)}/${method}`;
  const schema: FastifySchema = {};

  const pathParams: Array<{ name: string; pointer: string; required: boolean }> = [];
  const queryParams: string[] = [];
  (operation.parameters ?? []).forEach((raw, i) => {
    const { parameter, pointer } = resolveParameter(document, raw, `${base}/parameters/${i}`);
    if (parameter.name === undefined) return;
    if (parameter.in === 'path')
      pathParams.push({ name: parameter.name, pointer: `${pointer}/schema`, required: true });
    if (parameter.in === 'query') queryParams.push(parameter.name);
  });
  if (pathParams.length > 0) {
    schema.params = {
      type: 'object',
      properties: Object.fromEntries(pathParams.map((p) => [p.name, { $ref: documentRef(p.pointer) }])),
      required: pathParams.filter((p) => p.required).map((p) => p.name),
    };
  }

  if (querySchema !== undefined) {
    checkQuerySchemaCovers(document, querySchema, queryParams, operation.operationId);
    schema.querystring = { $ref: documentRef(querySchema) };
  } else if (queryParams.length > 0) {
    throw new Error(`operation "${operation.operationId}" has query parameters: name the schema of its whole query`);
  }

  const json = operation.requestBody?.content?.['application/json'];
  if (json?.schema !== undefined) {
    schema.body = { $ref: documentRef(`${base}/requestBody/content/application~1json/schema`) };
  }
  return schema;
}

/** Whether the operation's body may be omitted. */
export function bodyIsOptional(located: LocatedOperation): boolean {
  return located.operation.requestBody?.required !== true;
}

function resolveParameter(
  document: OpenApiDocument,
  parameter: OpenApiParameter,
  pointer: string,
): { parameter: OpenApiParameter; pointer: string } {
  const target = parameter.$ref;
  if (target === undefined) return { parameter, pointer };
  const match = /^#\/components\/parameters\/([^/]+)$/.exec(target);
  const resolved = match?.[1] === undefined ? undefined : document.components.parameters?.[match[1]];
  if (resolved === undefined || match?.[1] === undefined) throw new Error(`unresolvable parameter $ref ${target}`);
  return { parameter: resolved, pointer: `/components/parameters/${match[1]}` };
}

/** The query schema must name exactly the operation's query parameters, or it would drift. */
function checkQuerySchemaCovers(
  document: OpenApiDocument,
  pointer: string,
  params: string[],
  operationId: string,
): void {
  const schema = pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (node, token) => (node as Record<string, unknown> | undefined)?.[unescapeToken(token)],
      document,
    ) as { properties?: Record<string, unknown> } | undefined;
  const names = Object.keys(schema?.properties ?? {}).sort();
  if (names.join() !== [...params].sort().join()) {
    throw new Error(`${pointer} does not describe the query parameters of "${operationId}" (${params.join(', ')})`);
  }
}

/**
 * A `$ref` to a JSON pointer of the registered document: `/components/schemas/Profile` →
 * `openapi.json#/components/schemas/Profile` (each token percent-encoded, as URIs require).
 */
export function documentRef(pointer: string): string {
  return `${DOCUMENT_ID}#${pointer
    .split('/')
    .map((token) => encodeURIComponent(token))
    .join('/')}`;
}

/** Escapes a JSON-pointer token: `/profiles/{id}` → `~1profiles~1{id}`. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
