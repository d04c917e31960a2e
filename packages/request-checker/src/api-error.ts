import { randomBytes } from 'node:crypto';
import type { ErrorBody, ErrorDetail } from '@browser-cloud/api-types';
import type { Refusal } from './request-checker.js';

/** A refusal, thrown by handlers and hooks; the error handler answers it. */
export class ApiError extends Error implements Refusal {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;

  constructor(refusal: Refusal) {
    super(refusal.body.message);
    this.status = refusal.status;
    this.body = refusal.body;
    this.headers = refusal.headers ?? {};
  }
}

/** An Error body with no properties beyond the document's: `details` only when there are some. */
export function errorBody(code: string, message: string, details?: ErrorDetail[]): ErrorBody {
  return details === undefined || details.length === 0 ? { code, message } : { code, message, details };
}

function fail(status: number, code: string, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError({ status, body: errorBody(code, message), ...(headers && { headers }) });
}

/** 400 `bad_request` with one `invalid_input` detail per field. */
export function badRequest(message: string, fields: Array<[field: string, problem: string]> = []): ApiError {
  const details = fields.map(([field, problem]) => ({ code: 'invalid_input', message: `${field}: ${problem}` }));
  return new ApiError({ status: 400, body: errorBody('bad_request', message, details) });
}

export const unauthorized = () => fail(401, 'unauthorized', 'missing or invalid authorization token');
export const forbidden = () => fail(403, 'forbidden', 'this API key lacks permission for this operation');
export const notFound = (message: string) => fail(404, 'not_found', message);
export const projectsDisabled = () => fail(404, 'projects_disabled', 'projects are disabled for this organization');

/**
 * 409 `conflict`, with `x-should-retry: false`: retrying cannot help, and the official SDK, which
 * retries a 409 by default, stops when it reads this header.
 */
export const conflict = (message: string) => fail(409, 'conflict', message, { 'x-should-retry': 'false' });

/** A new `X-Request-Id` value: `req_` and 16 hex digits. */
export const newRequestId = (): string => `req_${randomBytes(8).toString('hex')}`;
