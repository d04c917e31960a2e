import { ApiError } from '../http/api-error.js';

/** The status, body and headers of the ApiError `run` throws; anything else thrown is rethrown. */
export function apiErrorThrown(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, body: error.body, headers: error.headers };
  }
  throw new Error('expected an ApiError');
}
