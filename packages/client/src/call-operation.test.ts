import type { Validator } from '@browser-cloud/api-types';
import { isRepeatable, loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, type OperationDescriptor, prepare } from './call-operation.js';
import { resolveContext } from './connection.js';
import { InternalServerError, NotFoundError, RateLimitError, ValidationError } from './errors.js';
import * as generated from './generated/operations.js';
import { hangingFetch, json, networkError, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs `promise` to completion under fake timers; resolves to its value or its rejection. */
async function settle<T>(promise: Promise<T>): Promise<T | unknown> {
  const outcome = promise.then(
    (value) => value,
    (error: unknown) => error,
  );
  await vi.runAllTimersAsync();
  return outcome;
}

const accepting = Object.assign((_: unknown): _ is unknown => true, { errors: null });
const nonEmpty: Validator<unknown> = Object.assign(
  (value: unknown): value is unknown => {
    nonEmpty.errors = Object.values(value as object).includes('')
      ? [{ instancePath: '/id', schemaPath: '#/minLength', keyword: 'minLength', params: { limit: 1 } }]
      : null;
    return nonEmpty.errors === null;
  },
  { errors: null },
);

/** An operation no document has, so that nothing here follows one. */
const made = (extra: Partial<OperationDescriptor<unknown>> = {}): OperationDescriptor<unknown> => ({
  method: 'DELETE',
  path: '/zz_not_in_document/{id}/parts/{part}',
  params: [
    ['id', 'thing'],
    ['part', 'part'],
  ],
  validatePath: nonEmpty,
  repeatable: true,
  ...extra,
});

describe('prepare: the arguments of a call, as the document states them', () => {
  it('puts each path value in its place, encoded, and the query after it; values that are undefined are left out', () => {
    const request = prepare(made(), ['a b/c', 'ü'], undefined, { follow: true, skipped: undefined, n: 'x&y' });
    expect(request.path).toBe('/zz_not_in_document/a%20b%2Fc/parts/%C3%BC?follow=true&n=x%26y');
  });

  it('refuses a path value the path schema refuses, and "." or "..", naming what the parameter addresses', () => {
    expect(() => prepare(made(), ['', 'p'], undefined, undefined)).toThrow(ValidationError);
    expect(() => prepare(made(), ['..', 'p'], undefined, undefined)).toThrow(/address the thing by its ID$/);
  });

  it('checks a required body always, an optional one only when given, and the query as one object', () => {
    const refusing = Object.assign((_: unknown): _ is unknown => false, {
      errors: [{ instancePath: '', schemaPath: '#/type', keyword: 'type', params: { type: 'object' } }],
    });
    expect(() => prepare(made({ validateBody: refusing }), ['a', 'b'], undefined, undefined)).not.toThrow();
    expect(() => prepare(made({ validateBody: refusing }), ['a', 'b'], {}, undefined)).toThrow(/^body: /);
    expect(() =>
      prepare(made({ validateBody: refusing, bodyRequired: true }), ['a', 'b'], undefined, undefined),
    ).toThrow(/^body: /);
    expect(() => prepare(made({ validateQuery: refusing }), ['a', 'b'], undefined, undefined)).toThrow(/^query: /);
  });

  it('is repeatable as the operation says, and with repeatableWhen only when each value matches', () => {
    expect(prepare(made(), ['a', 'b'], undefined, undefined).repeatable).toBe(true);
    expect(prepare(made({ repeatable: false }), ['a', 'b'], undefined, undefined).repeatable).toBe(false);
    const when = made({ repeatableWhen: { id: /^t_/u, mode: /^safe$/u } });
    expect(prepare(when, ['t_1', 'b'], undefined, { mode: 'safe' }).repeatable).toBe(true);
    expect(prepare(when, ['x_1', 'b'], undefined, { mode: 'safe' }).repeatable).toBe(false);
    expect(prepare(when, ['t_1', 'b'], undefined, { mode: 'other' }).repeatable).toBe(false);
    expect(
      prepare(made({ repeatable: false, repeatableWhen: { id: /^t_/u } }), ['t_1', 'b'], undefined, undefined)
        .repeatable,
    ).toBe(false);
  });
});

describe('the generated operations read their repeatability from the document', () => {
  const descriptors = generated as unknown as Record<string, OperationDescriptor<unknown>>;
  const all = [...operations(loadOpenApiDocument())];

  it.each(all.map((operation) => [operation.operationId, operation] as const))(
    '%s: repeatable for the values the model says, and only those',
    (operationId, operation) => {
      const descriptor = descriptors[`${operationId}Operation`]!;
      const examples = (name: string) => {
        const parameter = operation.parameters.find((p) => p.name === name)?.parameter;
        return [
          parameter?.example,
          ...Object.values(parameter?.examples ?? {}).map((e) => (e as { value?: unknown }).value),
        ].filter((v) => typeof v === 'string');
      };
      // Each parameter that decides, at its documented examples and at a value nothing documents.
      for (const value of [...Object.keys(operation.repeatability.when).flatMap(examples), 'zz_not_in_document']) {
        const values = Object.fromEntries(descriptor.params.map(([name]) => [name, value]));
        const { repeatable } = prepare(
          { ...descriptor, validatePath: accepting, validateBody: accepting, validateQuery: accepting },
          descriptor.params.map(() => value),
          undefined,
          undefined,
        );
        expect(repeatable, value).toBe(isRepeatable(operation, values));
      }
    },
  );
});

describe('a DELETE answered without a body, retried after it may have applied', () => {
  const context = (fetch: Parameters<typeof resolveContext>[0]['fetch'], timeoutMs = 1000) =>
    resolveContext({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch, timeoutMs }).context;
  const deleting = made({ validatePath: accepting, deletes: true });
  const missing = json(404, { code: 'not_found', message: 'resource not found' });

  it('resolves when the retry meets 404 after a 5xx, a reset or a timeout: what it deletes is gone', async () => {
    for (const first of [json(503, { code: 'unavailable', message: 'later' }), networkError('ECONNRESET')]) {
      const fetch = scriptedFetch(first, missing);
      expect(await settle(call(context(fetch), deleting, ['a', 'b'], undefined, undefined, {}))).toBeUndefined();
      expect(fetch).toHaveBeenCalledTimes(2);
    }
    const hanging = hangingFetch();
    const timedOut = vi.fn(async (request: Request) =>
      timedOut.mock.calls.length === 1 ? hanging(request) : missing(),
    );
    expect(await settle(call(context(timedOut), deleting, ['a', 'b'], undefined, undefined, {}))).toBeUndefined();
    expect(timedOut).toHaveBeenCalledTimes(2);
  });

  it('rejects with NotFoundError when no attempt may have applied: a first 404, after 429, after a refused connection', async () => {
    for (const answers of [
      [missing],
      [json(429, { code: 'r', message: 'r' }), missing],
      [networkError('ECONNREFUSED'), missing],
    ]) {
      const fetch = scriptedFetch(...answers);
      expect(await settle(call(context(fetch), deleting, ['a', 'b'], undefined, undefined, {}))).toBeInstanceOf(
        NotFoundError,
      );
      expect(fetch).toHaveBeenCalledTimes(answers.length);
    }
  });

  it('keeps the 404 of an operation that does not delete, and resolves a 204 to undefined', async () => {
    const fetch = scriptedFetch(json(503, { code: 'unavailable', message: 'later' }), missing);
    const other = { ...deleting, deletes: false };
    expect(await settle(call(context(fetch), other, ['a', 'b'], undefined, undefined, {}))).toBeInstanceOf(
      NotFoundError,
    );
    const empty = scriptedFetch(() => new Response(null, { status: 204 }));
    expect(await settle(call(context(empty), deleting, ['a', 'b'], undefined, undefined, {}))).toBeUndefined();
    expect(empty.requests[0]?.method).toBe('DELETE');
  });

  it('gives up as any call does when the retries run out', async () => {
    const fetch = scriptedFetch(json(503, { code: 'unavailable', message: 'later' }));
    expect(await settle(call(context(fetch), deleting, ['a', 'b'], undefined, undefined, {}))).toBeInstanceOf(
      InternalServerError,
    );
    const limited = scriptedFetch(json(429, { code: 'r', message: 'r' }));
    expect(await settle(call(context(limited), deleting, ['a', 'b'], undefined, undefined, {}))).toBeInstanceOf(
      RateLimitError,
    );
  });
});
