import {
  deref,
  loadOpenApiDocument,
  type MediaTypeObject,
  type Operation as DocumentOperation,
  operationSignature,
  operations,
} from '@browser-cloud/openapi-document';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, contextOf, createConnection } from './connection.js';
import { InternalServerError, NotFoundError, RateLimitError } from './errors.js';
import * as generated from './generated/client.js';
import { execute, goneOnceApplied, type Operation } from './request.js';
import { hangingFetch, json, networkError, scriptedFetch, settle, TOKEN } from './test-support/mock-fetch.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const connection = (fetch: ClientOptions['fetch'], timeoutMs = 1000) =>
  createConnection({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch, timeoutMs });
const context = (fetch: ClientOptions['fetch']) => contextOf(connection(fetch), 'test');
const unavailable = json(503, { code: 'unavailable', message: 'later' });

/** What the model says of a request with these parameter values: repeatable, and each value matching its pattern. */
function isRepeatable({ repeatability }: DocumentOperation, values: Readonly<Record<string, unknown>>): boolean {
  const { repeatable, when } = repeatability;
  return (
    repeatable &&
    Object.entries(when).every(
      ([name, pattern]) => values[name] !== undefined && new RegExp(pattern, 'u').test(String(values[name])),
    )
  );
}

describe('the generated calls are repeatable as the document says, and only then', () => {
  const document = loadOpenApiDocument();
  const calls = generated as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  /** The first example the document gives of a media type's value. */
  const example = (media: MediaTypeObject | undefined): unknown =>
    media?.example ?? deref<{ value?: unknown }>(document, Object.values(media?.examples ?? {})[0] ?? {}).value;
  const sent = [...operations(document)].filter((operation) => !operation.streaming);
  const queryExample = (operation: DocumentOperation) =>
    Object.fromEntries(
      (operation.query?.parameters ?? [])
        .map((p) => [p.name, p.parameter.example ?? (p.schema?.schema as { example?: unknown })?.example])
        .filter(([, example]) => example !== undefined),
    );

  it.each(sent.map((operation) => [operation.operationId, operation] as const))(
    '%s: after a 503, sent again for the values the model says are repeatable',
    async (_, operation: DocumentOperation) => {
      const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name!);
      const parameter = (name: string) => operation.parameters.find((p) => p.name === name)!.parameter;
      const body = operation.body && example(operation.requestBody?.content[operation.body.mediaType]?.media);
      const success = operation.success!;
      const answer = success.mediaType
        ? json(Number(success.status), example(operation.responses[success.status]!.content[success.mediaType]!.media))
        : () => new Response(null, { status: Number(success.status) });
      /** A value of the parameter's type that nothing documents (an integer id is a number). */
      const undocumented = (name: string) => {
        const written = operation.parameters.find((p) => p.name === name)!.schema?.schema;
        const schema = deref<{ type?: unknown; minimum?: number }>(document, (written ?? {}) as object);
        return ['integer', 'number'].includes(String(schema.type))
          ? (schema.minimum ?? 0) + 987_654
          : 'zz_not_in_document';
      };
      // Each parameter that decides at its documented example, then every one at a value nothing documents.
      const trials = [
        ...Object.keys(operation.repeatability.when).map((decisive) =>
          Object.fromEntries(
            names.map((name) => [name, name === decisive ? parameter(name).example : undocumented(name)]),
          ),
        ),
        Object.fromEntries(names.map((name) => [name, undocumented(name)])),
      ];
      for (const values of trials) {
        const fetch = scriptedFetch(unavailable, answer);
        const { call } = operationSignature(document, operation);
        const args = [...names.map((name) => values[name]), ...(call.body === 'none' ? [] : [body])];
        // A query with a required parameter is an argument: its documented examples.
        if (call.query === 'positional') args.push(queryExample(operation));
        await settle(calls[operation.names.function]!(connection(fetch), ...args, { maxRetries: 1 }));
        expect(fetch.mock.calls.length, JSON.stringify(values)).toBe(isRepeatable(operation, values) ? 2 : 1);
      }
    },
  );
});

describe('a DELETE answered without a body, retried after it may have applied', () => {
  // A `done` remembers the attempts of one call: one per call.
  const deleting = (): Operation<void> => ({
    method: 'DELETE',
    path: '/zz_not_in_document/a',
    repeatable: true,
    done: goneOnceApplied(),
  });
  const missing = json(404, { code: 'not_found', message: 'resource not found' });

  it('resolves when the retry meets 404 after a 5xx, a reset or a timeout: what it deletes is gone', async () => {
    for (const first of [unavailable, networkError('ECONNRESET')]) {
      const fetch = scriptedFetch(first, missing);
      expect(await settle(execute(context(fetch), deleting))).toBeUndefined();
      expect(fetch).toHaveBeenCalledTimes(2);
    }
    const hanging = hangingFetch();
    const timedOut = vi.fn(async (request: Request) =>
      timedOut.mock.calls.length === 1 ? hanging(request) : missing(),
    );
    expect(await settle(execute(context(timedOut), deleting))).toBeUndefined();
    expect(timedOut).toHaveBeenCalledTimes(2);
  });

  it('rejects with NotFoundError when no attempt may have applied: a first 404, after 429, after a refused connection', async () => {
    for (const answers of [
      [missing],
      [json(429, { code: 'r', message: 'r' }), missing],
      [networkError('ECONNREFUSED'), missing],
    ]) {
      const fetch = scriptedFetch(...answers);
      expect(await settle(execute(context(fetch), deleting))).toBeInstanceOf(NotFoundError);
      expect(fetch).toHaveBeenCalledTimes(answers.length);
    }
  });

  it('keeps the 404 of an operation that does not delete, and resolves a 204 to undefined', async () => {
    const fetch = scriptedFetch(unavailable, missing);
    expect(await settle(execute(context(fetch), () => ({ ...deleting(), done: undefined })))).toBeInstanceOf(
      NotFoundError,
    );
    const empty = scriptedFetch(() => new Response(null, { status: 204 }));
    expect(await settle(execute(context(empty), deleting))).toBeUndefined();
    expect(empty.requests[0]?.method).toBe('DELETE');
  });

  it('gives up as any call does when the retries run out', async () => {
    expect(await settle(execute(context(scriptedFetch(unavailable)), deleting))).toBeInstanceOf(InternalServerError);
    const limited = scriptedFetch(json(429, { code: 'r', message: 'r' }));
    expect(await settle(execute(context(limited), deleting))).toBeInstanceOf(RateLimitError);
  });
});
