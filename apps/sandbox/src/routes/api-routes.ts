import type { LoginRequest } from '@browser-cloud/api-types';
import {
  deref,
  inlineRefs,
  type OpenApiDocument,
  type Operation,
  type OperationRole,
  resolveNode,
} from '@browser-cloud/openapi-document';
import {
  type CheckedRequest,
  checkRequest,
  operationRoute,
  type RequestChecker,
  unauthorized,
} from '@browser-cloud/request-checker';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createItem, deleteItem, listItems, updateItem } from '../domain/crud.js';
import { startLogin } from '../domain/login.js';
import { authorize } from '../http/auth.js';
import { LOG_EVENT, LOGIN_RESPONSE } from '../openapi/sandbox-document.js';
import { HONOURED_QUERY, streamLogs } from '../sse/log-stream.js';
import type { Caller, Item, SandboxState } from '../state/store.js';

/** What the sandbox does for each operation, as start-up reports it. */
export interface ServedOperations {
  /** CRUD on a resource the store keeps. */
  readonly fromStore: readonly Operation[];
  /** The seed's hand-written rules: a login flow, the log stream. */
  readonly bySeedRules: readonly Operation[];
  /** Answered with the document's example, after the auth and request checks. */
  readonly fromExamples: readonly Operation[];
  /** The query parameters each operation is given by the document and the sandbox does not act on. */
  readonly unhonoured: ReadonlyArray<{ readonly operation: Operation; readonly parameters: readonly string[] }>;
}

/**
 * The seed's rule an operation is served by, chosen by what it answers (the operations model),
 * never by its path or operationId: a `LoginResponse` starts a login flow, a stream of `LogEvent`s
 * streams the item's log.
 */
function ruleOf(operation: Operation, role: OperationRole | undefined): 'login' | 'stream' | undefined {
  if (role?.action !== 'action') return undefined;
  const { success } = operation;
  const media = success?.mediaType ? operation.responses[success.status]?.content[success.mediaType] : undefined;
  if ((media?.media.schema as { $ref?: unknown } | undefined)?.$ref === LOGIN_RESPONSE) return 'login';
  const data = (media?.schema?.schema as { 'x-sse-event-data'?: { $ref?: unknown } } | undefined)?.['x-sse-event-data'];
  if (operation.streaming && data?.$ref === LOG_EVENT) return 'stream';
  return undefined;
}

/**
 * One route per operation: authorisation before the body is read, the request checker, the items
 * the path names (parents first, in the caller's project), then what the operation's role says:
 * the store's create, list, read, merge, replace or delete, a seed rule, or the document's example.
 * Replies are serialised through the operation's response schemas.
 * @throws Error when an operation answered from an example has an answer with a body and no example.
 */
export function registerApiRoutes(
  app: FastifyInstance,
  document: OpenApiDocument,
  state: SandboxState,
  checker: RequestChecker,
): ServedOperations {
  const { model } = state.settings;
  const served = { fromStore: [], bySeedRules: [], fromExamples: [], unhonoured: [] } as {
    [K in keyof ServedOperations]: ServedOperations[K] extends ReadonlyArray<infer T> ? T[] : never;
  };
  const kept = keptResources(state);
  for (const operation of checker.operations) {
    const found = model.roleOf(operation);
    const role = found && kept.has(found.resource.key) ? found : undefined;
    const rule = ruleOf(operation, role);
    const answer = successOf(document, operation);
    // The answer is the item itself when the operation answers with the resource's schema.
    const answersItem = role?.resource.schema !== undefined && answer.pointer === role.resource.schema.pointer;
    const crud = role && role.action !== 'action' ? role.action : undefined;
    const fromExample = crud === undefined && rule === undefined && !answersItem;
    if (fromExample && answer.mediaType !== undefined && answer.example === undefined) {
      throw new Error(
        `The sandbox cannot start: ${operation.operationId} answers ${answer.status} ${answer.mediaType} and the document gives no example to serve.`,
      );
    }
    (crud || answersItem ? served.fromStore : rule ? served.bySeedRules : served.fromExamples).push(operation);
    const query = (operation.query?.parameters ?? []).map((p) => p.name);
    const honoured =
      rule === 'stream'
        ? HONOURED_QUERY
        : crud === 'list'
          ? query.filter((name) => !role?.resource.list?.others.includes(name))
          : [];
    const unhonoured = fromExample ? [] : query.filter((name) => !honoured.includes(name));
    if (unhonoured.length > 0) served.unhonoured.push({ operation, parameters: unhonoured });
    // The resources the path names, outermost first: `/browsers/{id}/pages/{page_id}` → browsers, pages.
    const scopes = pathScopes(operation, kept);

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
        if (scopes.length > 0 && caller === null) throw unauthorized();
        const parents: string[] = [];
        let item: Item | undefined;
        for (const { key, parameter } of scopes) {
          item = state.find(key, caller!, String(checked.path[parameter]), parameter, parents);
          parents.push(item.id);
        }
        reply.code(answer.status);
        if (caller && role && crud) {
          // A collection's operation acts under every item its path names; an item's under all but its own.
          const under = crud === 'create' || crud === 'list' ? parents : parents.slice(0, -1);
          const body = serve(state, { caller, role, checked, item: item!, parents: under, reply });
          return answer.mediaType === undefined ? reply.send() : body;
        }
        if (caller && item && rule === 'login') {
          return startLogin(state, caller, item, (checked.body ?? {}) as LoginRequest);
        }
        if (caller && item && rule === 'stream') return streamLogs(reply, item, checked.query, state, answer.eventData);
        if (answer.mediaType === undefined) return reply.send();
        if (item && answersItem) return item.value;
        // Fastify serialises a JSON media type through the route's response schema.
        reply.type(answer.mediaType);
        return answer.mediaType.includes('json') ? answer.example : reply.send(String(answer.example));
      },
    });
  }
  return served;
}

interface Served {
  caller: Caller;
  role: OperationRole;
  checked: CheckedRequest;
  /** The item the path names last: the one acted on, or for a collection's operation its parent. */
  item: Item;
  parents: string[];
  reply: FastifyReply;
}

/** A CRUD operation on the store; what it answers. */
function serve(state: SandboxState, { caller, role, checked, item, parents, reply }: Served): unknown {
  const { resource } = role;
  switch (role.action) {
    case 'create':
      return createItem(state, resource, caller, parents, checked.body).value;
    case 'list': {
      const { body, headers } = listItems(state, resource, caller, parents, checked.query);
      void reply.headers(headers);
      return body;
    }
    case 'read':
      return item.value;
    case 'merge':
    case 'replace':
      return updateItem(state, resource, caller, item, parents, checked.body, role.action).value;
    case 'delete':
      deleteItem(state, resource, item);
      return item.value;
    default:
      return undefined;
  }
}

/**
 * The resources the sandbox keeps items of: those the API can create, the seed's, and those the
 * fixture or the document's examples fill. Of any other (an action under `/gadgets/{id}` and no
 * way to make or see a gadget) it knows no item: its operations answer the document's examples,
 * whatever the id.
 */
function keptResources(state: SandboxState): ReadonlySet<string> {
  const seed = state.seedKeys();
  const { resources } = state.settings.model;
  return new Set(
    resources
      .filter((r) => r.crud.create !== undefined || seed.has(r.key) || state.items(r.key).size > 0)
      .map((r) => r.key),
  );
}

/** Each path parameter that names an item of a kept resource, with that resource's key, outermost first. */
function pathScopes(operation: Operation, kept: ReadonlySet<string>): { key: string; parameter: string }[] {
  const segments = operation.path.split('/').filter(Boolean);
  return segments.flatMap((segment, i) => {
    const name = /^\{([^}]+)\}$/.exec(segment)?.[1];
    const key = `/${segments
      .slice(0, i)
      .map((s) => (s.startsWith('{') ? '{}' : s))
      .join('/')}`;
    return name !== undefined && i > 0 && kept.has(key) ? [{ key, parameter: name }] : [];
  });
}

/**
 * The success answer: its status (`2XX` is 200), media type, where its schema lives, example (the
 * media type's, else its first example, else its schema's) and a stream's event data schema,
 * inlined for the serializer.
 */
function successOf(document: OpenApiDocument, operation: Operation) {
  const success = operation.success;
  const media = success?.mediaType ? operation.responses[success.status]?.content[success.mediaType] : undefined;
  const schema = media?.schema?.schema as { example?: unknown; examples?: unknown[] } | undefined;
  const [first] = Object.values(media?.media.examples ?? {});
  return {
    status: /^\d{3}$/.test(success?.status ?? '') ? Number(success?.status) : 200,
    mediaType: success?.mediaType,
    pointer: media?.schema && resolveNode(document, media.media.schema, media.schema.pointer).pointer,
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
