import type { Operation } from '@browser-cloud/openapi-document';
import type { FastifyRequest } from 'fastify';
import type { Caller, SandboxStore } from '../state/store.js';
import { forbidden, projectsDisabled, unauthorized } from './api-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller of an API operation; null outside the API's routes. */
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** The document's operation of an API route; absent on the sandbox's own routes. */
    operation?: Operation;
  }
}

/** The methods that only read (RFC 9110 §9.2.1): all a `readonly` token may call. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['get', 'head', 'options']);

/** `Bearer <token>` (scheme case-insensitive, RFC 7235), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Authenticates and authorises an API request, in the service's order: 401 for a missing or
 * unknown token, 404 `projects_disabled` for an organisation without projects, 403 when the
 * token's role or the organisation's plan lacks the operation. Runs before the body is read.
 * An operation the document lets through without a token (an empty security requirement) has
 * no caller when none is sent.
 */
export function authorize(request: FastifyRequest, store: SandboxStore, operation: Operation): Caller | null {
  if (request.headers.authorization === undefined && !operation.secured) return null;
  const token = bearerToken(request.headers.authorization);
  const caller = token === undefined ? undefined : store.authenticate(token);
  if (caller === undefined) throw unauthorized();
  if (!caller.organization.projectsEnabled) throw projectsDisabled();
  if (!permits(caller, operation)) throw forbidden();
  return caller;
}

/**
 * Whether the caller's role and its organisation's plan both grant the operation: a `readonly`
 * token only reads, and a plan grants every operation but those it excludes (by operationId or tag).
 */
export function permits(caller: Caller, operation: Operation): boolean {
  if (caller.role === 'readonly' && !SAFE_METHODS.has(operation.method)) return false;
  const excluded = new Set(caller.organization.plan.excludes);
  return ![operation.operationId, ...tagsOf(operation)].some((name) => excluded.has(name));
}

/** The operation's tags: the product areas a plan may exclude. */
export function tagsOf(operation: Operation): string[] {
  const tags = operation.operation['tags'];
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}
