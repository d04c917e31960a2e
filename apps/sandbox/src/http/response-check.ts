import {
  type OpenApiDocument,
  operations,
  schemaValidator,
  type ValidateFunction,
} from '@browser-cloud/openapi-document';
import { toIssues } from '@browser-cloud/api-types';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
    const why = toIssues(validate.errors ?? [], body, '(root)', { prefixFields: false })
      .map((issue) => issue.message)
      .join('; ');
    request.log.error({ operationId, status: reply.statusCode, why }, 'response violates the OpenAPI document');
    reply.code(500);
    return JSON.stringify({
      ...errorBody('internal_error', 'the sandbox produced a response that violates the OpenAPI document'),
      inner_error: { code: 'response_violation', message: why.slice(0, 500) },
    });
  };
}

/** operationId → the validator of its 200 `application/json` body, for the operations that have one. */
function successValidators(document: OpenApiDocument): Map<string, ValidateFunction> {
  const validators = new Map<string, ValidateFunction>();
  for (const { operationId, responses } of operations(document)) {
    const schema = responses['200']?.content['application/json']?.schema;
    if (schema !== undefined) validators.set(operationId, schemaValidator(document, schema.pointer));
  }
  return validators;
}
