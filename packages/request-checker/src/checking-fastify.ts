import type { Server } from 'node:http';
import type { Operation } from '@browser-cloud/openapi-document';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { type CheckedRequest, isRefusal, type RequestChecker, type RouteMatch } from './request-checker.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The document's operation of an API route (`operationRoute`); absent on a server's own routes. */
    operation?: Operation;
  }
}
import { ApiError, badRequest, errorBody, newRequestId } from './api-error.js';
import { frameworkErrors, handleError } from './error-handler.js';
import { clientErrorHandler, drainRequestBody, type RequestTimeouts, serverTimeouts } from './client-errors.js';

export interface CheckingFastifyOptions extends RequestTimeouts {
  /** Routes what no route takes: 404, or 405 with `Allow` for a path of the document. */
  checker: RequestChecker;
  /** Largest request body, in bytes; a larger one is a 413, refused before it is read. */
  bodyLimit: number;
  /** Longest path segment a route takes; a longer one is a 404. */
  maxParamLength: number;
  /** An idle kept-alive connection is closed after this. Default Node's, 5 s. */
  keepAliveTimeoutMs?: number | undefined;
  logger?: FastifyServerOptions['logger'];
}

/**
 * Fastify as the sandbox and the mock's front serve with it: every refusal (Node's parser, bad URLs,
 * a body over the limit, an `ApiError`…) an Error body with a request id; bodies as bytes.
 */
export function checkingFastify(options: CheckingFastifyOptions): FastifyInstance {
  const app = Fastify<Server>({
    bodyLimit: options.bodyLimit,
    routerOptions: { maxParamLength: options.maxParamLength },
    requestTimeout: options.requestTimeoutMs,
    ...(options.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeoutMs }),
    // Node would answer a missing Host with an empty 400; the onRequest hook below answers it.
    http: { ...serverTimeouts(options), requireHostHeader: false },
    clientErrorHandler: clientErrorHandler(options),
    frameworkErrors: frameworkErrors(options.maxParamLength),
    // A HEAD of a log stream would open a stream with no body to carry it.
    exposeHeadRoutes: false,
    // Streams end on close; sockets kept alive between requests are not waited for.
    forceCloseConnections: true,
    genReqId: newRequestId,
    logger: options.logger ?? false,
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(async (request) => {
    routeRequest(options.checker, request);
    throw new ApiError({ status: 404, body: errorBody('not_found', 'no such endpoint') });
  });
  // RFC 9112: an HTTP/1.1 request without Host is a 400.
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw badRequest('the request headers are invalid', [['headers.host', 'is required']]);
    }
  });
  app.addHook('onSend', async (request, reply) => {
    // An answer passed on (the mock's, from Prism) keeps its own.
    if (!reply.hasHeader('x-request-id')) void reply.header('x-request-id', request.id);
    // An answer before the whole body arrived (401, 413, …) closes the connection, but only once
    // the client had the chance to read it (see drainRequestBody).
    if (!request.raw.complete) {
      void reply.header('connection', 'close');
      drainRequestBody(request.raw);
    }
  });
  // Any content type is the checker's to accept or refuse (400), never Fastify's 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  return app;
}

/**
 * The Fastify route of an operation, which carries it (`config.operation`): the request is routed
 * once, by Fastify. Path parameters are named by position (`:p0`), since Fastify's router reads a
 * name only up to a `-` or `.`, which a document's parameter names may hold.
 */
export function operationRoute(operation: Operation) {
  let index = 0;
  return {
    method: operation.method.toUpperCase(),
    url: operation.path.replace(/\{[^}]+\}/g, () => `:p${index++}`),
    config: { operation },
  };
}

/** The operation of a request on an `operationRoute`, undefined on any other route. */
export const operationOf = (request: FastifyRequest): Operation | undefined => request.routeOptions.config.operation;

/**
 * The operation of a request: its route's, else the checker's answer for a path no route took.
 * @throws ApiError 404 or 405 when it has none.
 */
export function routeRequest(checker: RequestChecker, request: FastifyRequest): RouteMatch {
  const operation = operationOf(request);
  if (operation !== undefined) {
    // Fastify decoded the values already; a path that is not percent-encoded UTF-8 never reached the route.
    const values = request.params as Record<string, string>;
    const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name!);
    return { operation, path: Object.fromEntries(names.map((name, i) => [name, values[`p${i}`] ?? ''])) };
  }
  const match = checker.route(request.method, request.url.split('?')[0] ?? '');
  if (isRefusal(match)) throw new ApiError(match);
  return match;
}

/** A request that keeps every rule of its operation. @throws ApiError, the first rule it breaks. */
export function checkRequest(checker: RequestChecker, request: FastifyRequest): CheckedRequest {
  const search = request.url.split(/\?(.*)/s)[1] ?? '';
  const parts = { search, headers: request.headers, body: request.body as Buffer | undefined };
  const checked = checker.check(routeRequest(checker, request), parts);
  if (isRefusal(checked)) throw new ApiError(checked);
  return checked;
}
