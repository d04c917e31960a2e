/**
 * How long the sandbox waits for a client. None of them limits a response: a log stream that
 * follows a source stays open for as long as the client reads it.
 */
export interface ConnectionLimits {
  /** The request line and every header must arrive within this: from the connection, then from each request's first byte. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** A kept-alive connection with no request for this long is closed. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: Readonly<ConnectionLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/**
 * An answer sent before the request body was read (401, 413, a parse error) leaves the rest of
 * the body on the wire. Closing then would make the kernel reset the connection, and a client
 * still uploading would see the reset instead of the answer; so the rest is read and discarded,
 * up to these bounds, and only then is the connection closed.
 */
export const DRAIN_LIMITS = { maxBytes: 16 * 1024 * 1024, lingerMs: 5_000 } as const;

/**
 * How often Node checks the header and request timeouts (its default is 30 s, which would let
 * a 200 ms timeout fire 30 s late).
 */
export function timeoutCheckInterval(limits: ConnectionLimits): number {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return Math.max(10, Math.min(1_000, Math.floor(shortest / 4)));
}
