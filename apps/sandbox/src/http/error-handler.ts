import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from './api-error.js';
import { validationDetails, validationMessage, type RequestPart } from './validation-details.js';

/**
 * Every failure as the document's Error body: `{code, message, details?}` and nothing else.
 * Fastify's own errors (body too large, unsupported content type, …) are translated; anything
 * unexpected is a 500 whose message reveals nothing of the request.
 */
export function handleError(
  error: FastifyError | ApiError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // A stream that already started cannot change its status; it just ends.
  if (reply.sent || reply.raw.headersSent) {
    if (!reply.raw.writableEnded) reply.raw.end();
    return;
  }
  if (error instanceof ApiError) {
    void reply.code(error.statusCode).headers(error.headers).send(error.toBody());
    return;
  }
  const fastifyError = error as FastifyError;
  if (Array.isArray(fastifyError.validation)) {
    const part = (fastifyError.validationContext ?? 'body') as RequestPart;
    void reply
      .code(400)
      .send(
        errorBody('bad_request', validationMessage(part), validationDetails(fastifyError.validation as never, part)),
      );
    return;
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 413) {
    void reply.code(413).send(errorBody('payload_too_large', 'the request body is larger than the sandbox accepts'));
    return;
  }
  // The document lists no 415: an unsupported content type is invalid input, a 400 like any other.
  if (status === 415) {
    const type = String(request.headers['content-type'] ?? 'none').slice(0, 100);
    void reply
      .code(400)
      .send(
        errorBody('bad_request', `content type ${JSON.stringify(type)} is not supported; send application/json`, [
          { code: 'invalid_input', message: 'content-type: must be application/json' },
        ]),
      );
    return;
  }
  if (status >= 400 && status < 500) {
    void reply
      .code(status)
      .send(
        errorBody('bad_request', 'the request is malformed', [
          { code: 'invalid_input', message: fastifyError.message },
        ]),
      );
    return;
  }
  request.log.error({ err: error }, 'unexpected error');
  void reply.code(500).send(errorBody('internal_error', 'an internal error occurred'));
}
