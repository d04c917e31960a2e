import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { SandboxFixture } from './fixture/types.js';
import { badRequest, errorBody } from './http/api-error.js';
import { bodyTimeout } from './http/body-timeout.js';
import { allowCorsOrigins } from './http/cors.js';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS, timeoutCheckInterval } from './http/connection-limits.js';
import { handleError } from './http/error-handler.js';
import { excerpt } from './http/excerpt.js';
import { drainRequestBody } from './http/graceful-close.js';
import { parseJsonBody } from './http/json-body.js';
import { clientErrorHandler } from './http/parser-errors.js';
import { newRequestId } from './http/request-id.js';
import { responseCheck } from './http/response-check.js';
import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import { checkProducedProperties } from './openapi/produced-properties.js';
import { flowTypesOf } from './openapi/flow-types.js';
import { loadSandboxDocument } from './openapi/sandbox-document.js';
import { openApiValidatorCompiler } from './openapi/validator-compiler.js';
import { registerApiRoutes } from './routes/api-routes.js';
import { registerSandboxRoutes } from './routes/sandbox-routes.js';
import { SandboxState, type SandboxSettings } from './state/sandbox-state.js';

/** Everything `buildSandboxApp` needs; `startSandbox` fills the defaults. */
/** The settings, but the flow types: those come from the document. */
export interface SandboxAppOptions extends Omit<SandboxSettings, 'flowTypes'> {
  fixture: SandboxFixture;
  /** The parsed OpenAPI document; read from the repository when absent. */
  document?: OpenApiDocument;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Log each request (method, path, status; never headers). */
  logRequests: boolean;
  /** Where the request log goes instead of stdout's JSON lines (`readableRequestLog` on a terminal). */
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
 * `startSandbox` puts it on a socket. `state` is its in-memory state.
 */
export async function buildSandboxApp(
  options: SandboxAppOptions,
): Promise<{ app: FastifyInstance; state: SandboxState }> {
  const document = options.document ?? loadSandboxDocument();
  checkProducedProperties(document);
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
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
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
        void reply
          .code(404)
          .send(
            errorBody(
              'not_found',
              `not found: a path segment of ${longestSegment(path)} characters names nothing (ids are at most ${MAX_ID_LENGTH})`,
            ),
          );
        return;
      }
      void reply.code(400).send(
        errorBody('bad_request', 'the request URL is malformed', [
          {
            code: 'invalid_input',
            message:
              error.code === 'FST_ERR_BAD_URL'
                ? `path: ${excerpt(path)} is not valid percent-encoding`
                : `path: ${excerpt(error.message)}`,
          },
        ]),
      );
    },
  });

  app.setValidatorCompiler(openApiValidatorCompiler(document));
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(errorBody('not_found', `no such endpoint: ${request.method} ${excerpt(request.url.split('?')[0] ?? '')}`));
  });
  app.decorateRequest('caller', null);
  if (options.corsOrigins !== undefined && options.corsOrigins.length > 0) {
    await allowCorsOrigins(app, options.corsOrigins);
  }
  // RFC 9112: an HTTP/1.1 request without Host is a 400 (Node's own answer has no body).
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw badRequest('the request headers are invalid', [['headers.host', 'is required']]);
    }
  });
  app.addHook('preParsing', bodyTimeout(limits.bodyTimeoutMs));
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    // An answer before the whole body arrived (401, 413, …) closes the connection, but only once
    // the client had the chance to read it (see drainRequestBody). A stalled body (408) is closed
    // at once: nothing more is coming.
    if (!request.raw.complete && reply.statusCode !== 408) {
      void reply.header('connection', 'close');
      drainRequestBody(request.raw);
    }
  });
  if (options.checkResponses !== false) app.addHook('onSend', responseCheck(document));

  // JSON bodies: an empty one is "no body" (the login's body is optional), a malformed one is a
  // 400 like any other invalid input.
  // Fastify's text/plain parser would let a string reach the body schema: JSON only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  registerApiRoutes(app, document, state);
  await app.register(async (scope) => {
    // The hosted login page posts an empty form; its fields are never read. Only the sandbox's
    // own routes accept it: the API's take JSON alone.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
      done(null, {}),
    );
    registerSandboxRoutes(scope, state);
  });

  // Open streams would hold `close()` forever: end them first.
  app.addHook('preClose', async () => state.dispose());
  await app.ready();
  return { app, state };
}

function longestSegment(path: string): number {
  return Math.max(...path.split('/').map((segment) => segment.length));
}
