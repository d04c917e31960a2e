import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LoginRequest, LogStreamQuery, RenameProfileRequest } from '@browser-cloud/api-types';
import { renameProfile } from '../domain/rename.js';
import { startLogin } from '../domain/login.js';
import type { OperationId } from '../fixture/types.js';
import { notFound } from '../http/api-error.js';
import { authorize } from '../http/auth.js';
import { eventDataSchema } from '../openapi/response-schemas.js';
import { bodyIsOptional, locateOperation, routeSchema } from '../openapi/route-schemas.js';
import { streamLogSource } from '../sse/log-stream-session.js';
import type { SandboxState } from '../state/sandbox-state.js';
import { logSourceKey, type Caller } from '../state/store.js';

/**
 * The document's three operations. Routes, methods and request schemas come from the document;
 * authentication and authorisation run on `onRequest`, before the body is read.
 */
export function registerApiRoutes(app: FastifyInstance, document: OpenApiDocument, state: SandboxState): void {
  const route = (operationId: OperationId, querySchema?: string) => {
    const located = locateOperation(document, operationId);
    return {
      method: located.method.toUpperCase() as 'GET' | 'POST' | 'PATCH',
      url: located.fastifyPath,
      schema: routeSchema(document, located, querySchema),
      config: { operationId },
      onRequest: async (request: FastifyRequest) => {
        request.caller = authorize(request, state.store, operationId);
      },
      // An optional body that was not sent is an empty one: every field keeps its default.
      preValidation: async (request: FastifyRequest) => {
        if (request.body === undefined && bodyIsOptional(located) && located.requestBody !== undefined) {
          request.body = {};
        }
      },
    };
  };

  app.route({
    ...route('loginAuthConnection'),
    handler: async (request) => {
      const { id } = request.params as { id: string };
      return startLogin(state.store, caller(request), id, request.body as LoginRequest, state.settings);
    },
  });

  app.route({
    ...route('renameProfile'),
    handler: async (request) => {
      const { id_or_name: idOrName } = request.params as { id_or_name: string };
      const { name } = request.body as RenameProfileRequest;
      return renameProfile(state.store, caller(request), idOrName, name, state.settings.now());
    },
  });

  const logEventSchema = eventDataSchema(document, locateOperation(document, 'streamBrowserLogs'));
  app.route({
    ...route('streamBrowserLogs', '/components/schemas/LogStreamQuery'),
    handler: async (request, reply) => {
      const { id } = request.params as { id: string };
      const query = request.query as LogStreamQuery;
      const browser = state.store.browser(caller(request), id);
      if (browser === undefined) throw notFound(`browser ${id} not found`);
      const [kind, name] =
        query.source === 'path' ? (['path', query.path] as const) : (['supervisor', query.supervisor_process] as const);
      const source = name === undefined ? undefined : browser.logs.get(logSourceKey(kind, name));
      if (source === undefined)
        throw notFound(`browser ${id} has no ${kind === 'path' ? 'log file' : 'supervised process'} ${name ?? ''}`);
      // Compiled by Fastify's serializer once per schema, as the JSON answers are.
      const serialize = logEventSchema && reply.compileSerializationSchema(logEventSchema);
      reply.hijack();
      streamLogSource(reply.raw, source, {
        serialize,
        after: source.resumePosition(firstHeader(request.headers['last-event-id'])),
        follow: query.follow === true,
        keepAliveMs: state.settings.keepAliveMs,
        retryMs: state.settings.retryMs,
        // A hijacked reply sends none of the headers hooks set: pass on the CORS ones.
        headers: { ...corsHeadersOf(reply), 'x-request-id': request.id },
      });
    },
  });
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The `Access-Control-*` (and `Vary`) headers the CORS hook set on `reply`, if any. */
function corsHeadersOf(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if ((name.startsWith('access-control-') || name === 'vary') && value !== undefined) headers[name] = String(value);
  }
  return headers;
}

function caller(request: FastifyRequest): Caller {
  if (request.caller === null) throw new Error('an API route ran without an authenticated caller');
  return request.caller;
}
