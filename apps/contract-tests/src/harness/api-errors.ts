import type { APIError } from '@browser-cloud/client';

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
