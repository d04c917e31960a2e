import type { FastifyRequest } from 'fastify';
import type { OperationId } from '../fixture/types.js';
import { SandboxStore, type Caller } from '../state/store.js';
import { forbidden, projectsDisabled, unauthorized } from './api-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller of an API operation; null outside the API's routes. */
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** The document's operationId of an API route; absent on the sandbox's own routes. */
    operationId?: OperationId;
  }
}

/** `Bearer <token>` (scheme case-insensitive, RFC 7235), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Authenticates and authorises an API request, in the service's order: 401 for a missing or
 * unknown token, 404 `projects_disabled` for an organisation without projects, 403 when the
 * token's role or the organisation's plan lacks the operation. Runs before the body is read.
 */
export function authorize(request: FastifyRequest, store: SandboxStore, operationId: OperationId): Caller {
  const token = bearerToken(request.headers.authorization);
  const caller = token === undefined ? undefined : store.authenticate(token);
  if (caller === undefined) throw unauthorized();
  if (!caller.organization.projectsEnabled) throw projectsDisabled();
  if (!SandboxStore.permits(caller, operationId)) throw forbidden();
  return caller;
}
