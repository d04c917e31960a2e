import type { ErrorBody, ErrorDetail } from '@browser-cloud/api-types';
import type { Refusal } from '../request-checker.js';

/**
 * A failure answered with the document's Error body. Thrown by handlers and hooks; the error
 * handler turns it into the response.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Response headers that go with this answer. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The Error body: exactly `code`, `message` and, when there are any, `details`. */
  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.details);
  }
}

/** An Error body with no properties beyond the document's. */
export function errorBody(code: string, message: string, details?: ErrorDetail[]): ErrorBody {
  return details === undefined || details.length === 0 ? { code, message } : { code, message, details };
}

/** The request checker's refusal, thrown. */
export function refused(refusal: Refusal): ApiError {
  const { code, message, details } = refusal.body;
  return new ApiError(refusal.status, code, message, details, refusal.headers);
}

/** 400 `bad_request` with one `invalid_input` detail per field. */
export function badRequest(message: string, fields: Array<[field: string, problem: string]> = []): ApiError {
  return new ApiError(
    400,
    'bad_request',
    message,
    fields.map(([field, problem]) => ({ code: 'invalid_input', message: `${field}: ${problem}` })),
  );
}

export function unauthorized(): ApiError {
  return new ApiError(401, 'unauthorized', 'missing or invalid authorization token');
}

export function forbidden(message = 'this API key lacks permission for this operation'): ApiError {
  return new ApiError(403, 'forbidden', message);
}

export function notFound(message = 'resource not found'): ApiError {
  return new ApiError(404, 'not_found', message);
}

export function projectsDisabled(): ApiError {
  return new ApiError(404, 'projects_disabled', 'projects are disabled for this organization');
}

/**
 * 409 `conflict`, with `x-should-retry: false`: a conflict (a login flow in progress, a name
 * taken) does not go away by retrying, and the service's official SDK, which retries a 409 by
 * default, stops when it reads this header.
 */
export function conflict(message: string): ApiError {
  return new ApiError(409, 'conflict', message, undefined, { 'x-should-retry': 'false' });
}
