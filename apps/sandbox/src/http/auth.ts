import type { Operation } from '@browser-cloud/openapi-document';
import type { FastifyRequest } from 'fastify';
import type { Caller, SandboxState } from '../state/store.js';
import { forbidden, projectsDisabled, unauthorized } from '@browser-cloud/request-checker';

/** `Bearer <token>` (scheme case-insensitive, RFC 7235), or undefined. */
export const bearerToken = (header: string | undefined) => /^Bearer +([^\s]+) *$/i.exec(header ?? '')?.[1];

/**
 * Authenticates and authorises an API request in the service's order: 401, 404 `projects_disabled`,
 * 403 (role or plan). With an empty security requirement and no token, there is no caller.
 */
export function authorize(request: FastifyRequest, state: SandboxState, operation: Operation): Caller | null {
  if (request.headers.authorization === undefined && !operation.secured) return null;
  const token = bearerToken(request.headers.authorization);
  const caller = token === undefined ? undefined : state.tokens.get(token);
  if (caller === undefined) throw unauthorized();
  if (!caller.organization.projectsEnabled) throw projectsDisabled();
  if (!permits(caller, operation)) throw forbidden();
  return caller;
}

/**
 * Whether role and plan grant the operation: a `readonly` token calls only the safe methods
 * (RFC 9110 §9.2.1); a plan grants every operation but those it excludes.
 */
export function permits(caller: Caller, operation: Operation): boolean {
  if (caller.role === 'readonly' && !['get', 'head', 'options'].includes(operation.method)) return false;
  const excluded = caller.organization.plan.excludes ?? [];
  return !planNames(operation).some((name) => excluded.includes(name));
}

/** The names by which a plan may exclude an operation: its operationId and its tags. */
export function planNames(operation: Operation): string[] {
  return [operation.operationId, ...((operation.operation['tags'] as string[] | undefined) ?? [])];
}
