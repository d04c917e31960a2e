/** First retry waits about 0.5 s; each further one doubles. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Backoff never exceeds 8 s. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** A server's `Retry-After`/`retry-after-ms` is honoured up to 60 s. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses worth another attempt: 408, 429 and 5xx. 409 never is (a login flow already runs). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Milliseconds to wait before retry number `retry` (0 for the first retry): the server's
 * `retry-after-ms` or `Retry-After` (seconds or HTTP date) when present and valid, capped at
 * 60 s; otherwise 0.5 s × 2^retry capped at 8 s, minus up to 25 % jitter so that clients that
 * failed together do not retry together.
 */
export function retryDelay(retry: number, headers?: Headers, random: () => number = Math.random): number {
  const fromServer = headers && retryAfterMs(headers);
  if (fromServer !== undefined) return fromServer;
  return Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS) * (1 - random() * 0.25);
}

/** The server's requested wait in ms, clamped to [0, 60 s]; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  let ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isNaN(ms)) {
    const value = headers.get('retry-after')?.trim();
    if (!value) return undefined;
    ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
    if (Number.isNaN(ms)) return undefined;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

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
