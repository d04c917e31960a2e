/**
 * Error codes that mean no byte of the request reached the server: refused connection, DNS
 * failure, unreachable network or host, undici's connect timeout. Anything else (a reset, a
 * closed socket, a timeout after connecting) may come after the server read the request.
 */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** How many errors of a cause chain (and of AggregateErrors in it) are looked at. */
const MAX_CAUSES_SEARCHED = 64;

/** The objects of `error`'s chain, breadth first: each `cause` and AggregateError's `errors` (one host's addresses), once. */
function causesOf(error: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  for (const queue = [error]; queue.length > 0 && found.length < MAX_CAUSES_SEARCHED; ) {
    const node = queue.shift();
    if (typeof node !== 'object' || node === null || found.includes(node as Record<string, unknown>)) continue;
    const { errors, cause } = node as Record<string, unknown>;
    found.push(node as Record<string, unknown>);
    if (Array.isArray(errors)) queue.push(...errors);
    queue.push(cause);
  }
  return found;
}

/** True when a fetch failure certainly happened before sending (always false in browsers, which give no codes). */
export function failedBeforeSending(error: unknown): boolean {
  return causesOf(error).some(({ code }) => NOT_SENT.has(code as string));
}

/**
 * `CODE address:port` (or `CODE hostname`, or `CODE` alone) of the first error with a string
 * `code` in `cause`'s chain, preferring one that has an address; `''` when none has a code
 * (browsers give none). Pass a redacted cause: the text is copied from it as it is.
 */
export function describeConnectionFailure(cause: unknown): string {
  let coded = '';
  for (const { code, address, port, hostname } of causesOf(cause)) {
    if (typeof code !== 'string' || code === '') continue;
    const where =
      typeof address === 'string'
        ? `${address}${typeof port === 'number' ? `:${port}` : ''}`
        : typeof hostname === 'string'
          ? hostname
          : '';
    if (where) return `${code} ${where}`;
    coded ||= code;
  }
  return coded;
}
