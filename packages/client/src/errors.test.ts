import { describe, expect, it } from 'vitest';
import { createClient } from './create-client.js';
import {
  APIConnectionError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  BrowserCloudError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from './errors.js';
import { json, scriptedFetch, text, TOKEN } from './test-support/mock-fetch.js';

function client(fetch: ReturnType<typeof scriptedFetch>) {
  return createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch, maxRetries: 0 });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toBeInstanceOf(BrowserCloudError);
  return error as ApiError;
}

describe('status to error class', () => {
  const cases: Array<[number, typeof ApiError, string]> = [
    [400, BadRequestError, 'BadRequestError'],
    [401, AuthenticationError, 'AuthenticationError'],
    [403, PermissionDeniedError, 'PermissionDeniedError'],
    [404, NotFoundError, 'NotFoundError'],
    [409, ConflictError, 'ConflictError'],
    [429, RateLimitError, 'RateLimitError'],
    [500, InternalServerError, 'InternalServerError'],
    [502, InternalServerError, 'InternalServerError'],
    [503, InternalServerError, 'InternalServerError'],
    [418, ApiError, 'ApiError'],
    [422, ApiError, 'ApiError'],
  ];
  for (const [status, Class, name] of cases) {
    it(`${status} → ${name}`, async () => {
      const fetch = scriptedFetch(
        json(status, { code: 'some_code', message: 'some message' }, { 'x-request-id': 'req_1' }),
      );
      const error = await failure(client(fetch).profiles.rename('prof_1', { name: 'n' }));
      expect(error).toBeInstanceOf(Class);
      expect(error.constructor).toBe(Class);
      expect(error.name).toBe(name);
      expect(error.status).toBe(status);
      expect(error.code).toBe('some_code');
      expect(error.requestId).toBe('req_1');
      expect(error.headers.get('x-request-id')).toBe('req_1');
      expect(error.message).toBe(`${status} some_code: some message`);
      expect(String(error)).toBe(`${name}: ${status} some_code: some message`);
    });
  }
});

describe('error bodies', () => {
  it('carries details and inner_error; hasCode looks at all three levels', async () => {
    const body = {
      code: 'bad_request',
      message: 'the request body is invalid',
      details: [{ code: 'invalid_input', message: 'name: must be between 1 and 255 characters' }],
      inner_error: { code: 'upstream_unavailable', message: 'scheduler' },
    };
    const error = await failure(client(scriptedFetch(json(400, body))).profiles.rename('p', { name: 'n' }));
    expect(error.details).toEqual(body.details);
    expect(error.innerError).toEqual(body.inner_error);
    expect(error.hasCode('bad_request')).toBe(true);
    expect(error.hasCode('invalid_input')).toBe(true);
    expect(error.hasCode('upstream_unavailable')).toBe(true);
    expect(error.hasCode('projects_disabled')).toBe(false);
    expect(error.requestId).toBeUndefined();
  });

  it('projects_disabled is easy to test for', async () => {
    const body = { code: 'projects_disabled', message: 'projects are disabled for this organization' };
    const error = await failure(client(scriptedFetch(json(404, body))).auth.connections.login('ac_1'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.isProjectsDisabled).toBe(true);
    expect(error.code).toBe('projects_disabled');
    const plain = await failure(
      client(scriptedFetch(json(404, { code: 'not_found', message: 'resource not found' }))).auth.connections.login(
        'ac_1',
      ),
    );
    expect(plain.isProjectsDisabled).toBe(false);
  });

  it('an HTML page from a proxy gives an ApiError with the status and a short excerpt', async () => {
    const page = `<html><head><title>502 Bad Gateway</title></head>\n<body>${'x'.repeat(5000)}</body></html>`;
    const error = await failure(client(scriptedFetch(text(502, page))).profiles.rename('p', { name: 'n' }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(502);
    expect(error.code).toBeUndefined();
    expect(error.details).toEqual([]);
    expect(error.message).toMatch(
      /^502 status code \(body: <html><head><title>502 Bad Gateway<\/title><\/head> <body>x+…\)$/,
    );
    expect(error.message.length).toBeLessThan(260);
  });

  it('JSON that is not the Error shape, and an empty body', async () => {
    const other = await failure(
      client(scriptedFetch(json(400, { error: 'nope' }))).profiles.rename('p', { name: 'n' }),
    );
    expect(other).toBeInstanceOf(BadRequestError);
    expect(other.code).toBeUndefined();
    expect(other.message).toBe('400 status code (body: {"error":"nope"})');
    const empty = await failure(
      client(scriptedFetch(() => new Response(null, { status: 401 }))).profiles.rename('p', { name: 'n' }),
    );
    expect(empty).toBeInstanceOf(AuthenticationError);
    expect(empty.message).toBe('401 status code (no body)');
  });

  it('toJSON gives the fields, with headers as a record', async () => {
    const fetch = scriptedFetch(json(409, { code: 'conflict', message: 'taken' }, { 'x-request-id': 'req_9' }));
    const error = await failure(client(fetch).profiles.rename('p', { name: 'n' }));
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: 'ConflictError',
      message: '409 conflict: taken',
      status: 409,
      code: 'conflict',
      requestId: 'req_9',
      headers: { 'x-request-id': 'req_9', 'content-type': 'application/json' },
    });
  });

  it('a 2xx body that is not JSON is a BrowserCloudError, not a crash', async () => {
    const fetch = scriptedFetch(
      () => new Response('<html>', { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    const error = await client(fetch)
      .profiles.rename('p', { name: 'n' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrowserCloudError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/not valid JSON/);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
