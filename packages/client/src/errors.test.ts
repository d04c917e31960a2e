import { createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createClient } from './connection.js';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  BrowserCloudError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  ValidationError,
  MAX_MESSAGE_EXCERPT,
} from './errors.js';
import { MAX_BODY_EXCERPT, MAX_ERROR_BODY_BYTES } from './error-body.js';
import { json, scriptedFetch, text, TOKEN } from './test-support/mock-fetch.js';

function client(fetch: ReturnType<typeof scriptedFetch>) {
  return createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch, maxRetries: 0 });
}

async function failure(promise: Promise<unknown>): Promise<APIError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(APIError);
  expect(error).toBeInstanceOf(BrowserCloudError);
  return error as APIError;
}

describe('status to error class', () => {
  const cases: Array<[number, typeof APIError, string]> = [
    [400, BadRequestError, 'BadRequestError'],
    [401, AuthenticationError, 'AuthenticationError'],
    [403, PermissionDeniedError, 'PermissionDeniedError'],
    [404, NotFoundError, 'NotFoundError'],
    [409, ConflictError, 'ConflictError'],
    [429, RateLimitError, 'RateLimitError'],
    [500, InternalServerError, 'InternalServerError'],
    [502, InternalServerError, 'InternalServerError'],
    [503, InternalServerError, 'InternalServerError'],
    [418, APIError, 'APIError'],
    [422, APIError, 'APIError'],
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

describe('the classes themselves', () => {
  it('name each class on its prototype, writable, and give default messages', () => {
    const cases: Array<[Error, string, string]> = [
      [new BrowserCloudError('m'), 'BrowserCloudError', 'm'],
      [new APIConnectionError(), 'APIConnectionError', 'Connection error.'],
      [new APIConnectionTimeoutError(5), 'APIConnectionTimeoutError', 'Request timed out after 5 ms.'],
      [new APIUserAbortError(), 'APIUserAbortError', 'Request was aborted.'],
      [new ValidationError([]), 'ValidationError', 'invalid input'],
    ];
    for (const [error, name, message] of cases) {
      expect(error.name).toBe(name);
      expect(error.message).toBe(message);
      expect(Object.keys(error)).not.toContain('name');
      expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(error), 'name')).toEqual({
        value: name,
        writable: true,
        configurable: true,
        enumerable: false,
      });
      error.name = 'Renamed';
      expect(error.name).toBe('Renamed');
    }
  });

  it('ValidationError: field and rule of the first issue, all messages joined; defaults without issues', () => {
    const error = new ValidationError([
      { field: 'body.a', rule: 'type', message: 'body.a: must be string' },
      { field: 'body.b', rule: 'required', message: 'body.b: is required' },
    ]);
    expect(error).toMatchObject({ field: 'body.a', rule: 'type' });
    expect(error.message).toBe('body.a: must be string; body.b: is required');
    expect(new ValidationError([])).toMatchObject({ field: '', rule: 'unknown', issues: [] });
  });

  it('hasCode without inner_error, and with the code in a later detail only', () => {
    const error = new APIError({
      status: 400,
      headers: new Headers(),
      body: { code: 'bad_request', message: 'm', details: [{ code: 'a' }, { code: 'b' }] },
    });
    expect(error.hasCode('b')).toBe(true);
    expect(error.hasCode('c')).toBe(false);
  });
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

  it('reads an Error body with properties the document does not know: its code and message, the rest left out', async () => {
    const body = { code: 'conflict', message: 'taken', trace_id: 't_1', details: [{ code: 'dup', field: 'name' }] };
    const error = await failure(client(scriptedFetch(json(409, body))).profiles.rename('p', { name: 'n' }));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe('409 conflict: taken');
    expect(error.details).toEqual([{ code: 'dup' }]);
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

  it('an HTML page from a proxy gives an APIError with the status and a short excerpt', async () => {
    const page = `<html><head><title>502 Bad Gateway</title></head>\n<body>${'x'.repeat(5000)}</body></html>`;
    const error = await failure(client(scriptedFetch(text(502, page))).profiles.rename('p', { name: 'n' }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(502);
    expect(error.code).toBeUndefined();
    expect(error.details).toEqual([]);
    expect(error.message).toMatch(
      new RegExp(
        `^502 status code \\(body, ${page.length} bytes: <html><head><title>502 Bad Gateway</title></head> <body>x+…\\)$`,
      ),
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

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * A response whose body is generated as it is pulled, `size` bytes of `head` then `fill`
 * repeated, counting the bytes pulled and whether the rest was cancelled.
 */
function generated(status: number, head: string, fill: string, size: number, headers: Record<string, string> = {}) {
  const state = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  const first = encoder.encode(head);
  const chunk = encoder.encode(fill.repeat(Math.ceil((16 * KiB) / fill.length)).slice(0, 16 * KiB));
  const respond = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (state.pulled >= size) return controller.close();
          const next = state.pulled === 0 ? first : chunk;
          state.pulled += next.byteLength;
          controller.enqueue(next);
        },
        cancel() {
          state.cancelled = true;
        },
      }),
      { status, headers: { 'content-type': 'application/json', ...headers } },
    );
  return { state, respond };
}

describe('error bodies are read with a bound', () => {
  it(`reads at most ${MAX_ERROR_BODY_BYTES} bytes of a 256 MiB Error-shaped body, cancels the rest, and says its size`, async () => {
    const body = generated(400, '{"code":"bad_request","message":"', 'a', 256 * MiB, {
      'content-length': String(256 * MiB),
    });
    const fetch = scriptedFetch(body.respond);
    const error = await failure(client(fetch).profiles.rename('p', { name: 'n' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(body.state.pulled).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES + 32 * KiB);
    expect(body.state.cancelled).toBe(true);
    expect(error.message).toMatch(/^400 status code \(body, 268435456 bytes: \{"code":"bad_request","message":"a+…\)$/);
    expect(error.message.length).toBeLessThan(300);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('without a Content-Length the message says the body was longer than what was read', async () => {
    const body = generated(502, '<html>', 'x', 10 * MiB);
    const error = await failure(client(scriptedFetch(body.respond)).profiles.rename('p', { name: 'n' }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.message).toMatch(
      new RegExp(`^502 status code \\(body, over ${MAX_ERROR_BODY_BYTES} bytes: <html>x+…\\)$`),
    );
    expect(body.state.cancelled).toBe(true);
  });

  it('a body of exactly the limit is read whole and parsed', async () => {
    const head = '{"code":"bad_request","message":"';
    const message = 'm'.repeat(MAX_ERROR_BODY_BYTES - head.length - 2);
    const fetch = scriptedFetch(() => new Response(`${head}${message}"}`, { status: 400 }));
    const error = await failure(client(fetch).profiles.rename('p', { name: 'n' }));
    expect(error.code).toBe('bad_request');
    // The message holds an excerpt of the Error's message, with its length.
    expect(error.message).toBe(
      `400 bad_request: ${'m'.repeat(MAX_MESSAGE_EXCERPT - 'bad_request: '.length)}… (${message.length + 13} characters)`,
    );
    const over = scriptedFetch(() => new Response(`${head}${message}" }`, { status: 400 }));
    const cut = await failure(client(over).profiles.rename('p', { name: 'n' }));
    expect(cut.code).toBeUndefined();
    expect(cut.message).toMatch(/^400 status code \(body, over 65536 bytes: /);
  });

  it('the log stream reads a refused answer with the same bound', async () => {
    const body = generated(404, '{"code":"not_found","message":"', 'b', 256 * MiB);
    const fetch = scriptedFetch(body.respond);
    const stream = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch }).browsers.logs.stream('br_1', {
      source: 'path',
      path: '/x',
    });
    const error = await stream.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(body.state.pulled).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES + 32 * KiB);
    expect((error as Error).message.length).toBeLessThan(300);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('an unreadable or unparsable error body still gives the status class, and a 4xx is never retried', () => {
  const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  const deepError = `{"code":"bad_request","message":"m","inner_error":{"code":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;

  for (const [label, text] of [
    ['JSON nested 20,000 levels deep', deep],
    ['an Error body nested 20,000 levels deep', deepError],
  ] as const) {
    it(`a 400 with ${label}`, async () => {
      const fetch = scriptedFetch(() => new Response(text, { status: 400 }));
      const error = await failure(
        createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch }).profiles.rename('p', { name: 'n' }),
      );
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.code).toBeUndefined();
      expect(error.message).toMatch(new RegExp(`^400 status code \\(body, ${text.length} bytes: .{200}…\\)$`));
      expect(fetch).toHaveBeenCalledTimes(1);
    });
  }

  it('a 400 whose body breaks off mid-way', async () => {
    let sent = false;
    const broken = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) return controller.error(new TypeError('terminated'));
            sent = true;
            controller.enqueue(new TextEncoder().encode('{"code":"bad_req'));
          },
        }),
        { status: 400 },
      );
    const fetch = scriptedFetch(broken);
    const error = await failure(
      createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch }).profiles.rename('p', { name: 'n' }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toBe('400 status code (body unreadable after 16 bytes: {"code":"bad_req)');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('the log stream: a 400 nested 20,000 levels deep is BadRequestError, not retried', async () => {
    const fetch = scriptedFetch(() => new Response(deep, { status: 400 }));
    const stream = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch }).browsers.logs.stream('br_1', {
      source: 'path',
      path: '/x',
    });
    const error = await stream.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('what the message says of an error body', () => {
  const rename = (answer: () => Response) =>
    failure(
      createClient({
        token: TOKEN,
        baseUrl: 'http://127.0.0.1:1',
        fetch: scriptedFetch(answer),
        maxRetries: 0,
      }).profiles.rename('p', { name: 'n' }),
    );

  it(`an Error message of exactly ${MAX_MESSAGE_EXCERPT} characters with its code is not cut`, async () => {
    const message = 'm'.repeat(MAX_MESSAGE_EXCERPT - 'c: '.length);
    expect((await rename(json(400, { code: 'c', message }))).message).toBe(`400 c: ${message}`);
    const longer = `${message}n`;
    expect((await rename(json(400, { code: 'c', message: longer }))).message).toBe(
      `400 c: ${message}… (${MAX_MESSAGE_EXCERPT + 1} characters)`,
    );
  });

  it(`a body of exactly ${MAX_BODY_EXCERPT} characters is shown whole; whitespace runs become one space`, async () => {
    const exact = 'x'.repeat(MAX_BODY_EXCERPT);
    expect((await rename(text(502, exact))).message).toBe(`502 status code (body: ${exact})`);
    expect((await rename(text(502, `  a \n\t b  `))).message).toBe('502 status code (body: a b)');
    expect((await rename(text(502, ' \n '))).message).toBe('502 status code (no body)');
  });

  it('a complete Error body cut by the limit is not parsed; a Content-Length that is not a number is not quoted', async () => {
    const padded = `{"code":"bad_request","message":"m"}${' '.repeat(MAX_ERROR_BODY_BYTES)}`;
    for (const declared of ['many', '70000x', 'x70000']) {
      const cut = await rename(() => new Response(padded, { status: 400, headers: { 'content-length': declared } }));
      expect(cut.code).toBeUndefined();
      expect(cut.message).toBe(
        `400 status code (body, over ${MAX_ERROR_BODY_BYTES} bytes: {"code":"bad_request","message":"m"})`,
      );
    }
  });

  it('an Error body that breaks off after it was complete is not trusted either; nothing read says so', async () => {
    const breaking = (first: string) => () => {
      let sent = false;
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent || !first) return controller.error(new TypeError('terminated'));
            sent = true;
            controller.enqueue(new TextEncoder().encode(first));
          },
        }),
        { status: 400 },
      );
    };
    const whole = await rename(breaking('{"code":"c","message":"m"}'));
    expect(whole.code).toBeUndefined();
    expect(whole.message).toBe('400 status code (body unreadable after 26 bytes: {"code":"c","message":"m"})');
    expect((await rename(breaking(''))).message).toBe('400 status code (body unreadable after 0 bytes)');
  });
});

describe('a connection error says why', () => {
  it('a closed loopback port: the code and the address', async () => {
    const port = await closedPort();
    const error = await createClient({ token: TOKEN, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 })
      .profiles.rename('p', { name: 'n' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(`Connection error: ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('https to a plain-HTTP server: the TLS code', async () => {
    const server = createServer((_request, response) => response.end('plain'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const error = await createClient({ token: TOKEN, baseUrl: `https://127.0.0.1:${port}`, maxRetries: 0 })
        .auth.connections.login('ac_1')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toMatch(/^Connection error: ERR_SSL_[A-Z_]+$/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
