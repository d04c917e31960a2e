import { toIssues } from '@browser-cloud/api-types';
import { findResponse, type OpenApiDocument, operations, schemaValidator } from '@browser-cloud/openapi-document';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { responseViolation } from './error-handler.js';

/**
 * The `onSend` hook that checks every JSON body of an API route against the response the
 * operation documents for the status (`Error` for another status), by full Ajv, formats asserted.
 * A violation becomes a 500 `response_violation` naming the fields and rules: a sandbox bug fails
 * loudly instead of teaching clients a shape the service never sends.
 */
export function responseCheck(document: OpenApiDocument) {
  const validators = new Map(
    [...operations(document)].flatMap((operation) =>
      Object.values(operation.responses).flatMap((response) => {
        const json = Object.values(response.content).find((media) => media.mediaType.includes('json'))?.schema;
        return json === undefined ? [] : [[response.pointer, schemaValidator(document, json.pointer)] as const];
      }),
    ),
  );
  const error = schemaValidator(document, '/components/schemas/Error');
  return async function checkResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const { operation } = request.routeOptions.config;
    if (operation === undefined || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const documented = findResponse(operation, reply.statusCode);
    const validate = documented === undefined ? error : validators.get(documented.pointer);
    if (validate === undefined) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {}
    if (validate(body)) return payload;
    const issues = toIssues(validate.errors ?? [], body, '(root)', { prefixFields: false });
    const why = issues.map((issue) => issue.message).join('; ');
    request.log.error(
      { operationId: operation.operationId, status: reply.statusCode, why },
      'response violates the OpenAPI document',
    );
    reply.code(500);
    return JSON.stringify(responseViolation(why));
  };
}
