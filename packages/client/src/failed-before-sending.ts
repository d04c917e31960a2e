/**
 * Error codes that mean no connection was made, so no byte of the request reached the server:
 * refused connection, DNS failure (permanent or temporary), unreachable network or host, and
 * undici's connect timeout. Anything else (a reset, a closed socket, a timeout after connecting)
 * may come after the server read the request.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * True when a fetch failure certainly happened before the request was sent: one of
 * {@link NOT_SENT_CODES} appears as `code` anywhere in the `cause` chain (or in the `errors` of
 * an AggregateError, which Node uses when every address of a host refused). Browsers give no
 * codes, so there this is always false and a login is never retried on a connection error.
 */
export function failedBeforeSending(error: unknown, depth = 0): boolean {
  if (depth > 8 || error === null || typeof error !== 'object') return false;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
  if (Array.isArray(errors) && errors.some((e) => failedBeforeSending(e, depth + 1))) return true;
  return failedBeforeSending(cause, depth + 1);
}
