import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** What a page may read of an answer: the request id of an error, and the retry hints. */
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'x-should-retry', 'retry-after', 'retry-after-ms'];

/** What a page may send: the token, a JSON body, and an event-stream reader's resume cursor and `Cache-Control`. */
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'last-event-id', 'cache-control'];

/**
 * Lets pages of `origins` call the API's `methods`: preflights are answered before authentication;
 * no credentials mode (the token travels in `Authorization`). Each entry must be an origin
 * exactly, no path or wildcard, so that opening the sandbox to a page is a deliberate choice.
 * @throws Error naming an entry that is not an origin.
 */
export async function allowCorsOrigins(app: FastifyInstance, origins: readonly string[], methods: string[]) {
  for (const origin of origins) {
    const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new Error(`corsOrigins: ${JSON.stringify(origin)} is not an origin (like http://127.0.0.1:5173)`);
    }
  }
  await app.register(cors, {
    origin: [...origins],
    methods,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    strictPreflight: true,
  });
}
