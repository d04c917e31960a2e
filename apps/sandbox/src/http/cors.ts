import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * What a page may read of an answer: the headers the client reads (the request id of an error,
 * and the retry hints).
 */
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'x-should-retry', 'retry-after', 'retry-after-ms'] as const;

/**
 * What a page may send: the bearer token, a JSON body, and what an event-stream reader sends
 * (its resume cursor, and `Cache-Control: no-cache`).
 */
export const CORS_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'last-event-id',
  'cache-control',
] as const;

/**
 * Checks the `corsOrigins` option: each entry is an origin exactly (`http://127.0.0.1:5173`: a
 * scheme, a host, a port if not the default; no path, no wildcard), so that opening the sandbox
 * to a page is a deliberate choice of which page.
 */
export function checkCorsOrigins(origins: readonly string[]): string[] {
  return origins.map((origin) => {
    const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== origin) {
      throw new Error(`corsOrigins: ${JSON.stringify(origin)} is not an origin (like http://127.0.0.1:5173)`);
    }
    return origin;
  });
}

/**
 * Lets pages of `origins` call the API's `methods` (those of the document's operations) from a browser: preflights are answered (204) before
 * authentication, and answers carry `Access-Control-Allow-Origin` for those origins only. No
 * credentials mode: the token travels in `Authorization`, never in a cookie. Registered before
 * every other hook, so that a preflight never meets the Host check or a route's authentication.
 */
export async function allowCorsOrigins(
  app: FastifyInstance,
  origins: readonly string[],
  methods: readonly string[],
): Promise<void> {
  await app.register(cors, {
    origin: [...origins],
    methods: [...methods],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: 600,
    strictPreflight: true,
  });
}
