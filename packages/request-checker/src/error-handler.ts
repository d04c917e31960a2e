import { toIssues } from '@browser-cloud/api-types';
import { findResponse, type OpenApiDocument, operations, schemaValidator } from '@browser-cloud/openapi-document';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { clip, invalidPart, isRefusal, parseJson } from './request-checker.js';
import { ApiError, errorBody } from './api-error.js';

/** The 500 of an answer the document refuses; `why` names the fields and rules. */
function responseViolation(why: string) {
  const message = 'the sandbox produced a response that violates the OpenAPI document';
  return { code: 'internal_error', message, inner_error: { code: 'response_violation', message: why.slice(0, 500) } };
}

/**
 * Every failure as the document's Error body, Fastify's own errors translated; anything
 * unexpected is a 500 whose message reveals nothing of the request.
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void {
  // A stream that already started cannot change its status; it just ends.
  if (reply.sent || reply.raw.headersSent) {
    if (!reply.raw.writableEnded) reply.raw.end();
    return;
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (error instanceof ApiError) {
    void reply.code(error.status).headers(error.headers).send(error.body);
  } else if ('serialization' in error) {
    // The document's response schema refused what the sandbox wrote (a required property it
    // does not produce): loudly, as the response self-check does.
    request.log.error({ err: error }, 'response violates the OpenAPI document');
    void reply.code(500).send(responseViolation(error.message));
  } else if (status === 413) {
    const message = `the request body is larger than ${request.routeOptions.bodyLimit} bytes`;
    void reply.code(413).send(errorBody('payload_too_large', message));
  } else if (status >= 400 && status < 500) {
    const detail = { code: 'invalid_input', message: error.message.slice(0, 500) };
    void reply.code(status).send(errorBody('bad_request', 'the request is malformed', [detail]));
  } else {
    request.log.error({ err: error }, 'unexpected error');
    void reply.code(500).send(errorBody('internal_error', 'an internal error occurred'));
  }
}

/**
 * Fastify's `frameworkErrors`: a path that is not valid percent-encoding (400), or with a segment
 * over `maxParamLength` (404, naming only its length), never reaches a route nor its hooks.
 */
export function frameworkErrors(maxParamLength: number) {
  return (error: FastifyError, request: FastifyRequest, rawReply: unknown): void => {
    const path = request.url.split('?')[0] ?? '';
    const reply = (rawReply as unknown as FastifyReply).header('x-request-id', request.id);
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      const longest = Math.max(...path.split('/').map((segment) => segment.length));
      const message = `not found: a path segment of ${longest} characters names nothing (ids are at most ${maxParamLength})`;
      void reply.code(404).send(errorBody('not_found', message));
      return;
    }
    const why = error.code === 'FST_ERR_BAD_URL' ? `${clip(path, 100)} is not valid percent-encoding` : error.message;
    void reply.code(400).send(invalidPart('path', [`path: ${why}`]).body);
  };
}

/**
 * The `onSend` hook that checks an API route's JSON body against the response its operation
 * documents for the status (else `Error`), formats asserted: a sandbox bug fails loudly (a 500
 * `response_violation`) instead of teaching clients a shape the service never sends.
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
    const parsed = parseJson(payload);
    const body = isRefusal(parsed) ? undefined : parsed.value;
    if (validate(body)) return payload;
    const issues = toIssues(validate.errors ?? [], body, '(root)', { prefixFields: false });
    const why = issues.map((issue) => issue.message).join('; ');
    const logged = { operationId: operation.operationId, status: reply.statusCode, why };
    request.log.error(logged, 'response violates the OpenAPI document');
    reply.code(500);
    return JSON.stringify(responseViolation(why));
  };
}
