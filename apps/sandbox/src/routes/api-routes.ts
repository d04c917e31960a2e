import type { LoginRequest, RenameProfileRequest } from '@browser-cloud/api-types';
import { deref, inlineRefs, type OpenApiDocument, type Operation } from '@browser-cloud/openapi-document';
import type { FastifyInstance } from 'fastify';
import { startLogin } from '../domain/login.js';
import { profileBody, renameProfile } from '../domain/rename.js';
import { authorize } from '../http/auth.js';
import { checkRequest, operationRoute, type RequestChecker, unauthorized } from '@browser-cloud/request-checker';
import { streamLogs } from '../sse/log-stream.js';
import {
  type AuthConnection,
  type Browser,
  type Collection,
  isCollection,
  type Profile,
  type SandboxState,
} from '../state/store.js';

/**
 * What the sandbox does for an operation, read from its path and method, never its operationId:
 * the service's rules where it has them, the store for a `GET` or `DELETE` of a resource it keeps,
 * and the document's example for everything else.
 */
function actionOf(operation: Operation, collection: Collection | undefined, parameter: string | undefined) {
  const segments = operation.path.split('/');
  const names = (index: number) => parameter !== undefined && segments.at(index) === `{${parameter}}`;
  const { method } = operation;
  if (collection === 'connections' && method === 'post' && names(-2) && segments.at(-1) === 'login') return 'login';
  if (collection === 'profiles' && method === 'patch' && names(-1)) return 'rename';
  if (collection === 'browsers' && operation.streaming && segments.includes('logs')) return 'stream';
  if (names(-1) && (method === 'get' || method === 'delete')) return method === 'get' ? 'read' : 'delete';
  return 'example';
}

/**
 * One route per operation: authorisation before the body is read, the request checker, then the
 * action, its reply serialised through the operation's response schemas.
 * @returns the operations answered with the document's example.
 * @throws Error when such an operation has an answer with a body and no example to give.
 */
export function registerApiRoutes(
  app: FastifyInstance,
  document: OpenApiDocument,
  state: SandboxState,
  checker: RequestChecker,
): Operation[] {
  const fromExamples: Operation[] = [];
  for (const operation of checker.operations) {
    // The stored resource the path names: the last path parameter of a collection the sandbox keeps.
    const parameter = operation.parameters.filter((p) => p.in === 'path' && isCollection(p.collection)).at(-1);
    const collection = parameter?.collection as Collection | undefined;
    const action = actionOf(operation, collection, parameter?.name);
    const answer = successOf(document, operation);
    const generic = action === 'example' || ((action === 'read' || action === 'delete') && collection !== 'profiles');
    if (generic && answer.mediaType !== undefined && answer.example === undefined) {
      throw new Error(
        `The sandbox cannot start: ${operation.operationId} answers ${answer.status} ${answer.mediaType} and the document gives no example to serve.`,
      );
    }
    if (action === 'example') fromExamples.push(operation);
    app.route({
      ...operationRoute(operation),
      schema: { response: responseSchemas(document, operation) },
      // Before the body is read; the handler asks again for the caller, which the hook let through.
      onRequest: async (request) => {
        authorize(request, state, operation);
      },
      handler: async (request, reply) => {
        const checked = checkRequest(checker, request);
        const caller = authorize(request, state, operation);
        if (parameter !== undefined && caller === null) throw unauthorized();
        const resource =
          parameter && caller && state.find(collection!, caller, String(checked.path[parameter.name]), parameter.name);
        reply.code(answer.status);
        if (caller && resource) {
          const body = (checked.body ?? {}) as LoginRequest & RenameProfileRequest;
          if (action === 'login') return startLogin(state, caller, resource as AuthConnection, body);
          if (action === 'rename') return renameProfile(state, caller, resource as Profile, body.name);
          if (action === 'stream')
            return streamLogs(reply, resource as Browser, checked.query, state, answer.eventData);
          if (action === 'delete') state.delete(collection!, resource.id);
        }
        if (answer.mediaType === undefined) return reply.send();
        // Fastify serialises a JSON media type through the route's response schema.
        reply.type(answer.mediaType);
        if (action === 'example') {
          return answer.mediaType.includes('json') ? answer.example : reply.send(String(answer.example));
        }
        // A stored resource as the document shows it: a profile as the sandbox writes it, any other
        // as the document's example, with the resource's own id and name.
        if (collection === 'profiles') return profileBody(resource as Profile);
        const name = resource && 'name' in resource ? { name: resource.name } : {};
        return { ...(answer.example as object), id: resource?.id, ...name };
      },
    });
  }
  return fromExamples;
}

/**
 * The success answer: its status (`2XX` is 200), media type, example (the media type's, else its
 * first example, else its schema's) and a stream's event data schema, inlined for the serializer.
 */
function successOf(document: OpenApiDocument, operation: Operation) {
  const success = operation.success;
  const media = success?.mediaType ? operation.responses[success.status]?.content[success.mediaType] : undefined;
  const schema = media?.schema?.schema as { example?: unknown; examples?: unknown[] } | undefined;
  const [first] = Object.values(media?.media.examples ?? {});
  return {
    status: /^\d{3}$/.test(success?.status ?? '') ? Number(success?.status) : 200,
    mediaType: success?.mediaType,
    example:
      media?.media.example ??
      (first == null ? undefined : deref(document, first as { value?: unknown }).value) ??
      schema?.examples?.[0] ??
      schema?.example,
    eventData: success?.eventData && (inlineRefs(document, success.eventData.schema) as Record<string, unknown>),
  };
}

/**
 * Fastify's `response` route schema: the document's schema of each JSON answer by status, inlined
 * (the serializer follows no `$ref`), so that what the document no longer has is left out.
 */
function responseSchemas(document: OpenApiDocument, operation: Operation): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(operation.responses).flatMap(([status, { content }]) => {
      const schema = Object.entries(content).find(([type]) => type.includes('json'))?.[1].media.schema;
      // `4XX` in OpenAPI, `4xx` in Fastify.
      return schema === undefined ? [] : [[status.toLowerCase(), inlineRefs(document, schema)]];
    }),
  );
}
