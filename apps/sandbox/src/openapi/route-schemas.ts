import { ajvRef, findOperation, getAt, type OpenApiDocument, type Operation } from '@browser-cloud/openapi-document';
import type { FastifySchema } from 'fastify';
import { responseSchemas } from './response-schemas.js';

/** An operation of the document, with its path in Fastify's syntax: `/profiles/:id_or_name`. */
export interface LocatedOperation extends Operation {
  readonly fastifyPath: string;
}

/** Finds an operation by its `operationId`. @throws when the document has no such operation. */
export function locateOperation(document: OpenApiDocument, operationId: string): LocatedOperation {
  const operation = findOperation(document, operationId);
  return { ...operation, fastifyPath: operation.path.replace(/\{([^}]+)\}/g, ':$1') };
}

/**
 * Fastify's route schema for an operation. The request parts are `$ref`s into the registered
 * document: the validators check the document's own schemas, never a copy. `response` holds the
 * document's answer schemas, which Fastify serialises replies with (see responseSchemas).
 *
 * @param querySchema a JSON pointer to a schema of the whole query object, for operations
 *   whose query rules span several parameters (the log stream's `LogStreamQuery`).
 */
export function routeSchema(document: OpenApiDocument, located: LocatedOperation, querySchema?: string): FastifySchema {
  const schema: FastifySchema = {};
  const pathParams = located.parameters.filter((p) => p.in === 'path');
  const queryParams = located.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  if (pathParams.length > 0) {
    schema.params = {
      type: 'object',
      properties: Object.fromEntries(
        pathParams.map((p) => {
          if (p.schema === undefined) throw new Error(`path parameter "${p.name}" at ${p.pointer} has no schema`);
          return [p.name, { $ref: ajvRef(p.schema.pointer) }];
        }),
      ),
      required: pathParams.map((p) => p.name),
    };
  }

  if (querySchema !== undefined) {
    checkQuerySchemaCovers(document, querySchema, queryParams, located.operationId);
    schema.querystring = { $ref: ajvRef(querySchema) };
  } else if (queryParams.length > 0) {
    throw new Error(`operation "${located.operationId}" has query parameters: name the schema of its whole query`);
  }

  const json = located.requestBody?.content['application/json']?.schema;
  if (json !== undefined) schema.body = { $ref: ajvRef(json.pointer) };
  schema.response = responseSchemas(document, located);
  return schema;
}

/** Whether the operation's body may be omitted. */
export function bodyIsOptional(located: LocatedOperation): boolean {
  return located.requestBody?.required !== true;
}

/** The query schema must name exactly the operation's query parameters, or it would drift. */
function checkQuerySchemaCovers(
  document: OpenApiDocument,
  pointer: string,
  params: string[],
  operationId: string,
): void {
  const schema = getAt(document, pointer) as { properties?: Record<string, unknown> } | undefined;
  const names = Object.keys(schema?.properties ?? {}).sort();
  if (names.join() !== [...params].sort().join()) {
    throw new Error(`${pointer} does not describe the query parameters of "${operationId}" (${params.join(', ')})`);
  }
}
