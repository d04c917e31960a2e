import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { SandboxFixture } from './fixture/types.js';
import { badRequest, errorBody } from './http/api-error.js';
import { handleError } from './http/error-handler.js';
import { responseCheck } from './http/response-check.js';
import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import { loadSandboxDocument } from './openapi/sandbox-document.js';
import { openApiValidatorCompiler } from './openapi/validator-compiler.js';
import { registerApiRoutes } from './routes/api-routes.js';
import { registerSandboxRoutes } from './routes/sandbox-routes.js';
import { SandboxState, type SandboxSettings } from './state/sandbox-state.js';

/** Everything `buildSandboxApp` needs; `startSandbox` fills the defaults. */
export interface SandboxAppOptions extends SandboxSettings {
  fixture: SandboxFixture;
  /** The parsed OpenAPI document; read from the repository when absent. */
  document?: OpenApiDocument;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Log each request (method, path, status; never headers). */
  logRequests: boolean;
  /** Check every API response body against the document; a violation becomes a 500. Default true. */
  checkResponses?: boolean;
}

/**
 * The sandbox as a Fastify instance, not yet listening: `app.inject()` drives it in tests,
 * `startSandbox` puts it on a socket. `state` is its in-memory state.
 */
export async function buildSandboxApp(
  options: SandboxAppOptions,
): Promise<{ app: FastifyInstance; state: SandboxState }> {
  const document = options.document ?? loadSandboxDocument();
  const state = new SandboxState(options.fixture, {
    flowTtlMs: options.flowTtlMs,
    keepAliveMs: options.keepAliveMs,
    retryMs: options.retryMs,
    now: options.now,
    publicUrl: options.publicUrl,
  });

  const app = Fastify({
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    // Ids are opaque but can be long; longer ones still reach the handler (and its 404).
    routerOptions: { maxParamLength: 1024 },
    // A HEAD of the log stream would open a stream with no body to carry it.
    exposeHeadRoutes: false,
    // Streams end on close; sockets kept alive between requests are not waited for.
    forceCloseConnections: true,
    genReqId: () => `req_${randomBytes(8).toString('hex')}`,
    logger: options.logRequests
      ? {
          level: 'info',
          // Method, path and status only: no headers, so no token ever reaches a log line.
          serializers: {
            req: (req) => ({ method: req.method, url: req.url.split('?')[0] ?? '' }),
            res: (res) => ({ statusCode: res.statusCode }),
          },
        }
      : false,
    // Path segments that are not valid percent-encoding never reach a route.
    frameworkErrors: (error, _request, rawReply) => {
      const reply = rawReply as unknown as FastifyReply;
      void reply
        .code(400)
        .send(
          errorBody('bad_request', 'the request URL is malformed', [
            { code: 'invalid_input', message: `path: ${error.message}` },
          ]),
        );
    },
  });

  app.setValidatorCompiler(openApiValidatorCompiler(document));
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(errorBody('not_found', `no such endpoint: ${request.method} ${request.url.split('?')[0]}`));
  });
  app.decorateRequest('caller', null);
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  if (options.checkResponses !== false) app.addHook('onSend', responseCheck(document));

  // JSON bodies: an empty one is "no body" (the login's body is optional), a malformed one is a
  // 400 like any other invalid input.
  // Fastify's text/plain parser would let a string reach the body schema: JSON only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(badRequest('the request body is not valid JSON', [['body', (error as Error).message]]), undefined);
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
