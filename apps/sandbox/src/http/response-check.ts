import { toIssues } from '@browser-cloud/api-types';
import {
  findResponse,
  type OpenApiDocument,
  operations,
  schemaValidator,
  type ValidateFunction,
} from '@browser-cloud/openapi-document';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './api-error.js';

/** An `onSend` hook, as `app.addHook('onSend', …)` takes it. */
export type ResponseCheckHook = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;

/**
 * The `onSend` hook that checks every JSON body of the API's routes (those whose route config
 * holds an operation) against the document: against the JSON schema of the response the
 * operation documents for the status, and against `Error` for a status it does not document. A
 * body that violates it is replaced by a 500 `internal_error` whose `inner_error`
 * (`response_violation`) says which field broke which rule, so a sandbox bug fails loudly instead
 * of teaching clients a shape the service never sends.
 *
 * The validators are compiled here, once per document, by full Ajv: `format`s such as
 * `date-time` and `uri` are asserted, and the errors have messages.
 */
export function responseCheck(document: OpenApiDocument): ResponseCheckHook {
  const validators = new Map<string, ValidateFunction>();
  for (const operation of operations(document)) {
    for (const response of Object.values(operation.responses)) {
      const json = Object.values(response.content).find((media) => media.mediaType.includes('json'))?.schema;
      if (json !== undefined) validators.set(response.pointer, schemaValidator(document, json.pointer));
    }
  }
  const error = schemaValidator(document, '/components/schemas/Error');
  return async function checkResponse(request, reply, payload) {
    const { operation } = request.routeOptions.config;
    if (operation === undefined || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const documented = findResponse(operation, reply.statusCode);
    const validate = documented === undefined ? error : validators.get(documented.pointer);
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
    const { operationId } = operation;
    request.log.error({ operationId, status: reply.statusCode, why }, 'response violates the OpenAPI document');
    reply.code(500);
    return JSON.stringify({
      ...errorBody('internal_error', 'the sandbox produced a response that violates the OpenAPI document'),
      inner_error: { code: 'response_violation', message: why.slice(0, 500) },
    });
  };
}
