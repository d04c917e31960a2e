import type { OpenApiDocument, Operation } from '@browser-cloud/openapi-document';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { SandboxFixture } from './fixture/fixture-schema.js';
import { badRequest, errorBody, refused } from './http/api-error.js';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS, timeoutCheckInterval } from './http/connection-limits.js';
import { allowCorsOrigins } from './http/cors.js';
import { handleError } from './http/error-handler.js';
import { drainRequestBody } from './http/graceful-close.js';
import { clientErrorHandler } from './http/parser-errors.js';
import { newRequestId } from './http/request-id.js';
import { responseCheck } from './http/response-check.js';
import { flowTypesOf } from './openapi/flow-types.js';
import { loadSandboxDocument } from './openapi/sandbox-document.js';
import { clip, createRequestChecker, isRefusal } from './request-checker.js';
import { registerApiRoutes } from './routes/api-routes.js';
import { registerSandboxRoutes } from './routes/sandbox-routes.js';
import { SandboxState, type SandboxSettings } from './state/sandbox-state.js';

/** Everything `buildSandboxApp` needs but the flow types, which come from the document. */
export interface SandboxAppOptions extends Omit<SandboxSettings, 'flowTypes'> {
  fixture: SandboxFixture;
  /** The parsed OpenAPI document; read from the repository when absent. */
  document?: OpenApiDocument;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Log each request (method, path, status; never headers). */
  logRequests: boolean;
  /** Where the request log's JSON lines go instead of stdout. */
  logStream?: { write(line: string): void } | undefined;
  /** Check every API response body against the document; a violation becomes a 500. Default true. */
  checkResponses?: boolean | undefined;
  /** How long the sandbox waits for a client; `DEFAULT_CONNECTION_LIMITS` when absent. */
  limits?: ConnectionLimits | undefined;
  /** Origins whose pages may call the API from a browser (CORS). Default none: no CORS headers at all. */
  corsOrigins?: readonly string[] | undefined;
}

/** Longest id a path may carry; a longer one names nothing (404) and is never echoed. */
export const MAX_ID_LENGTH = 1024;

/**
 * The sandbox as a Fastify instance, not yet listening: `app.inject()` drives it in tests,
 * `startSandbox` puts it on a socket. `state` is its in-memory state; `fromExamples` the
 * operations it answers with the document's examples.
 */
export async function buildSandboxApp(
  options: SandboxAppOptions,
): Promise<{ app: FastifyInstance; state: SandboxState; fromExamples: Operation[] }> {
  const document = options.document ?? loadSandboxDocument();
  const checker = createRequestChecker(document);
  const state = new SandboxState(options.fixture, {
    flowTtlMs: options.flowTtlMs,
    keepAliveMs: options.keepAliveMs,
    retryMs: options.retryMs,
    now: options.now,
    publicUrl: options.publicUrl,
    flowTypes: flowTypesOf(document),
  });

  const limits = options.limits ?? DEFAULT_CONNECTION_LIMITS;
  const app = Fastify({
    bodyLimit: options.bodyLimit,
    routerOptions: { maxParamLength: MAX_ID_LENGTH },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node's server takes the header timeout only here, and checks it against the request timeout
    // given with it.
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: timeoutCheckInterval(limits),
      // Node would answer a missing Host with an empty 400; the onRequest hook below answers it.
      requireHostHeader: false,
    },
    clientErrorHandler: clientErrorHandler(limits),
    // A HEAD of the log stream would open a stream with no body to carry it.
    exposeHeadRoutes: false,
    // Streams end on close; sockets kept alive between requests are not waited for.
    forceCloseConnections: true,
    genReqId: newRequestId,
    logger: options.logRequests
      ? {
          level: 'info',
          // Method, path and status only: no headers, so no token ever reaches a log line.
          serializers: {
            req: (req) => ({ method: req.method, url: req.url.split('?')[0] ?? '' }),
            res: (res) => ({ statusCode: res.statusCode }),
          },
          ...(options.logStream ? { stream: options.logStream } : {}),
        }
      : false,
    // Path segments that are not valid percent-encoding, and ids over MAX_ID_LENGTH, never reach
    // a route, nor its hooks: the request id is set here.
    frameworkErrors: (error, request, rawReply) => {
      const reply = (rawReply as unknown as FastifyReply).header('x-request-id', request.id);
      const path = request.url.split('?')[0] ?? '';
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        const longest = Math.max(...path.split('/').map((segment) => segment.length));
        const message = `not found: a path segment of ${longest} characters names nothing (ids are at most ${MAX_ID_LENGTH})`;
        void reply.code(404).send(errorBody('not_found', message));
      } else {
        const why =
          error.code === 'FST_ERR_BAD_URL'
            ? `${clip(path, 100)} is not valid percent-encoding`
            : clip(error.message, 100);
        void reply.code(400).send(badRequest('the request URL is malformed', [['path', why]]).toBody());
      }
    },
  });

  app.setErrorHandler(handleError);
  // A path of the document with another method is a 405 with Allow; any other path a 404.
  app.setNotFoundHandler(async (request) => {
    const match = checker.route(request.method, request.url.split('?')[0] ?? '');
    const refusal = isRefusal(match) ? match : { status: 404, body: errorBody('not_found', 'no such endpoint') };
    throw refused(refusal);
  });
  app.decorateRequest('caller', null);
  if (options.corsOrigins !== undefined && options.corsOrigins.length > 0) {
    const methods = [...new Set(checker.operations.map((operation) => operation.method.toUpperCase()))];
    await allowCorsOrigins(app, options.corsOrigins, methods);
  }
  // RFC 9112: an HTTP/1.1 request without Host is a 400 (Node's own answer has no body).
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw badRequest('the request headers are invalid', [['headers.host', 'is required']]);
    }
  });
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    // An answer before the whole body arrived (401, 413, …) closes the connection, but only once
    // the client had the chance to read it (see drainRequestBody).
    if (!request.raw.complete) {
      void reply.header('connection', 'close');
      drainRequestBody(request.raw);
    }
  });
  if (options.checkResponses !== false) app.addHook('onSend', responseCheck(document));

  // Bodies reach the routes as bytes: the request checker reads them (content type, UTF-8, JSON,
  // depth) against the operation, so that any content type is its 400, never Fastify's 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const fromExamples = registerApiRoutes(app, document, state, checker);
  registerSandboxRoutes(app, state);

  // Open streams would hold `close()` forever: end them first.
  app.addHook('preClose', async () => state.dispose());
  await app.ready();
  return { app, state, fromExamples };
}
