import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from './api-error.js';

/** The 500 of an answer the document refuses; `why` names the fields and rules. */
export function responseViolation(why: string) {
  const message = 'the sandbox produced a response that violates the OpenAPI document';
  return {
    ...errorBody('internal_error', message),
    inner_error: { code: 'response_violation', message: why.slice(0, 500) },
  };
}

/**
 * Every failure as the document's Error body: `{code, message, details?}` and nothing else.
 * Fastify's own errors (a body over the limit, an answer its response schema refuses, …) are
 * translated; anything unexpected is a 500 whose message reveals nothing of the request.
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void {
  // A stream that already started cannot change its status; it just ends.
  if (reply.sent || reply.raw.headersSent) {
    if (!reply.raw.writableEnded) reply.raw.end();
    return;
  }
  if (error instanceof ApiError) {
    void reply.code(error.status).headers(error.headers).send(error.body);
    return;
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if ('serialization' in error) {
    // The document's response schema refused what the sandbox wrote (a required property it
    // does not produce): loudly, as the response self-check does.
    request.log.error({ err: error }, 'response violates the OpenAPI document');
    void reply.code(500).send(responseViolation(error.message));
  } else if (status === 413) {
    void reply.code(413).send(errorBody('payload_too_large', 'the request body is larger than the sandbox accepts'));
  } else if (status >= 400 && status < 500) {
    const detail = { code: 'invalid_input', message: error.message.slice(0, 500) };
    void reply.code(status).send(errorBody('bad_request', 'the request is malformed', [detail]));
  } else {
    request.log.error({ err: error }, 'unexpected error');
    void reply.code(500).send(errorBody('internal_error', 'an internal error occurred'));
  }
}
