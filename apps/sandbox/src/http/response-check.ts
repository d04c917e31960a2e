import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { describeErrors } from '../openapi/describe-errors.js';
import type { OpenApiDocument } from '../openapi/document.js';
import { escapeToken } from '../openapi/route-schemas.js';
import { schemaValidator } from '../openapi/schema-validators.js';
import { errorBody } from './api-error.js';

/** An `onSend` hook, as `app.addHook('onSend', …)` takes it. */
export type ResponseCheckHook = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;

/**
 * The `onSend` hook that checks every JSON body of the API's routes (those whose route config
 * names an `operationId`) against the document: a 200 against the operation's own 200 JSON
 * schema, anything else against `Error`. A body that violates it is replaced by a 500
 * `internal_error` whose `inner_error` (`response_violation`) says which field broke which rule,
 * so a sandbox bug fails loudly instead of teaching clients a shape the service never sends.
 *
 * The validators are compiled here, once per document, by full Ajv: `format`s such as
 * `date-time` and `uri` are asserted, and the errors have messages.
 */
export function responseCheck(document: OpenApiDocument): ResponseCheckHook {
  const success = successValidators(document);
  const error = schemaValidator(document, '/components/schemas/Error');
  return async function checkResponse(request, reply, payload) {
    const operationId = request.routeOptions.config.operationId;
    if (operationId === undefined || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const validate = reply.statusCode === 200 ? success.get(operationId) : error;
    if (validate === undefined) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      body = undefined;
    }
    if (validate(body)) return payload;
    const why = describeErrors(validate.errors).join('; ');
    request.log.error({ operationId, status: reply.statusCode, why }, 'response violates the OpenAPI document');
    reply.code(500);
    return JSON.stringify({
      ...errorBody('internal_error', 'the sandbox produced a response that violates the OpenAPI document'),
      inner_error: { code: 'response_violation', message: why.slice(0, 500) },
    });
  };
}

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}

/** operationId → the validator of its 200 `application/json` body, for the operations that have one. */
function successValidators(document: OpenApiDocument): Map<string, ValidateFunction> {
  const validators = new Map<string, ValidateFunction>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      const operation = value as { operationId?: unknown; responses?: Record<string, ResponseObject> } | null;
      const ok = operation?.responses?.['200'];
      if (typeof operation?.operationId !== 'string' || ok === undefined) continue;
      const { response, pointer } = resolveResponse(
        document,
        ok,
        `/paths/${escapeToken(path)}/${method}/responses/200`,
      );
      if (response.content?.['application/json']?.schema === undefined) continue;
      validators.set(operation.operationId, schemaValidator(document, `${pointer}/content/application~1json/schema`));
    }
  }
  return validators;
}

/** A response object may be a `$ref` to `components/responses`; Ajv cannot follow that one. */
function resolveResponse(
  document: OpenApiDocument,
  response: ResponseObject,
  pointer: string,
): { response: ResponseObject; pointer: string } {
  if (response.$ref === undefined) return { response, pointer };
  const name = /^#\/components\/responses\/([^/]+)$/.exec(response.$ref)?.[1];
  const components = (document.components as { responses?: Record<string, ResponseObject> }).responses;
  const resolved = name === undefined ? undefined : components?.[name];
  if (resolved === undefined || name === undefined) throw new Error(`unresolvable response $ref ${response.$ref}`);
  return { response: resolved, pointer: `/components/responses/${name}` };
}
