import {
  type APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '@browser-cloud/client';
import { expect } from 'vitest';

/**
 * The error class a caller must get for each status the document lists. Written out here on
 * purpose, not imported from the client: it is the oracle the client's own mapping is checked against.
 */
export const ERROR_CLASS_BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
  500: InternalServerError,
};

/** Settles `work` (a call, or the first reads of a stream) and returns what it threw. */
export async function failure(work: Promise<unknown> | (() => Promise<unknown>)): Promise<APIError> {
  const promise = typeof work === 'function' ? (async () => work())() : work;
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as APIError,
  );
}

/** Asserts the caller got the documented status as its error class, with code and message. */
export async function expectApiError(
  work: Promise<unknown> | (() => Promise<unknown>),
  status: number,
): Promise<APIError> {
  const error = await failure(work);
  const expected = ERROR_CLASS_BY_STATUS[status];
  expect(expected, `no error class is expected for status ${status}`).toBeDefined();
  expect(error, `status ${status} must reach the caller as ${expected!.name}`).toBeInstanceOf(expected!);
  expect(error.status).toBe(status);
  expect(error.code).toEqual(expect.any(String));
  expect(error.code).not.toBe('');
  expect(error.message).toEqual(expect.any(String));
  return error;
}
