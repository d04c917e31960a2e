import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** What a page may read of an answer: the request id of an error, and the retry hints. */
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'x-should-retry', 'retry-after', 'retry-after-ms'];

/** What a page may send: the token, a JSON body, and an event-stream reader's resume cursor and `Cache-Control`. */
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'last-event-id', 'cache-control'];

/**
 * Lets pages of `origins` call the API's `methods` from a browser: preflights are answered (204)
 * before authentication, and answers carry `Access-Control-Allow-Origin` for those origins only.
 * No credentials mode: the token travels in `Authorization`, never in a cookie. Each origin must
 * be one exactly (`http://127.0.0.1:5173`: no path, no wildcard), so that opening the sandbox to
 * a page is a deliberate choice of which page.
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
