import type { FastifyReply, FastifyRequest } from 'fastify';
import { validateError, validateLoginResponse, validateProfile } from '@browser-cloud/api-types/validators';
import type { Validator } from '@browser-cloud/api-types';
import { errorBody } from './api-error.js';

const SUCCESS: Record<string, Validator<unknown>> = {
  loginAuthConnection: validateLoginResponse,
  renameProfile: validateProfile,
};

/**
 * An `onSend` hook for the API's routes: every JSON body is checked with the validators
 * generated from the document (the operation's 200 schema, or Error), and a body that violates
 * it is replaced by a 500 that says so. A sandbox bug then fails loudly instead of teaching
 * clients a shape the service never sends.
 */
export async function checkResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const operationId = request.routeOptions.config.operationId;
  if (operationId === undefined || typeof payload !== 'string') return payload;
  if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
  const validate = reply.statusCode === 200 ? SUCCESS[operationId] : validateError;
  if (validate === undefined) return payload;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    body = undefined;
  }
  if (validate(body)) return payload;
  const why = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`).join('; ');
  request.log.error({ operationId, status: reply.statusCode, why }, 'response violates the OpenAPI document');
  reply.code(500);
  return JSON.stringify({
    ...errorBody('internal_error', 'the sandbox produced a response that violates the OpenAPI document'),
    inner_error: { code: 'response_violation', message: why.slice(0, 500) },
  });
}
