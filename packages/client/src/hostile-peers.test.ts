import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from './connection.js';
import { ERROR_BODY_TIMEOUT_MS } from './error-body.js';
import { APIError, NotFoundError, ValidationError } from './errors.js';
import { fetchUnredirected } from './global-fetch.js';
import { fetchUnredirected as browserFetch } from './manual-fetch.js';
import { createRawClient } from './raw.js';
import { findSecret } from './test-support/find-secret.js';
import { json, PROFILE, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

// Peers that answer in ways a careless client mishandles: redirects, base URLs that smuggle in a
// query or a fragment, strings that are not Unicode, error bodies that stall, tokens short
// enough to be found in the data.

const BASE = 'https://api.example.com';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('no failure');
}

describe('a redirect, from a real server through the global fetch', () => {
  let answer: (response: ServerResponse) => void = () => {};
  const seen: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    seen.push(`${request.method} ${request.url}`);
    answer(response);
  });
  let baseUrl = '';
  let refusing = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A port that refuses: one that was just listened on and closed.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    refusing = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/moved`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(() => {
    seen.length = 0;
  });

  it.each([302, 307, 308])(
    '%i is not followed: a login without a body fails with the status naming the Location, and is sent once',
    async (status) => {
      answer = (response) => response.writeHead(status, { location: refusing }).end();
      const client = createClient({ token: TOKEN, baseUrl, maxRetries: 2 });
      const error = await failure(client.auth.connections.login('ac_1'));
      expect(error).toBeInstanceOf(APIError);
      expect(error).toMatchObject({ status });
      expect((error as Error).message).toBe(
        `${status} status code (redirect to ${refusing}, not followed: point the base URL at the address that answers)`,
      );
      expect(seen).toHaveLength(1);
    },
  );

  it.each([302, 307, 308])(
    '%i is not followed: a call with a body (a login, a rename by name and by ID), which Node sends refusing redirects, fails with status 0, once',
    async (status) => {
      answer = (response) => response.writeHead(status, { location: refusing }).end();
      const client = createClient({ token: TOKEN, baseUrl, maxRetries: 2 });
      const calls = [
        () => client.auth.connections.login('ac_1', { proxy: { id: 'prx_1' } }),
        () => client.profiles.rename('checkout-agent', { name: 'n' }),
        () => client.profiles.rename('prof_1', { name: 'n' }),
      ];
      for (const [index, call] of calls.entries()) {
        const error = await failure(call());
        expect(error).toBeInstanceOf(APIError);
        expect(error).toMatchObject({ status: 0 });
        expect([...(error as APIError).headers]).toEqual([]);
        expect((error as Error).message).toBe(
          '0 status code (redirect, not followed: point the base URL at the address that answers)',
        );
        expect(seen).toHaveLength(index + 1);
      }
    },
  );

  it("in a browser bundle's fetch module, a call with a body gets the redirect as it came", async () => {
    answer = (response) => response.writeHead(307, { location: refusing }).end();
    const init = { method: 'PATCH', body: '{"name":"n"}', headers: new Headers() };
    const response = await browserFetch(`${baseUrl}/profiles/p`, init);
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(refusing);
    expect(seen).toHaveLength(1);
  });

  it("a failure of Node's fetch that is not a refused redirect is left as it is", async () => {
    answer = (response) => response.destroy();
    const error = await failure(fetchUnredirected(`${baseUrl}/profiles/p`, { method: 'PATCH', body: '{}' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(APIError);
    expect(seen).toHaveLength(1);
  });

  it('of the log stream is not followed either', async () => {
    answer = (response) => response.writeHead(301, { location: '/v2/browsers/br_1/logs/stream' }).end();
    const client = createClient({ token: TOKEN, baseUrl, maxRetries: 2 });
    const error = await failure(client.browsers.logs.stream('br_1', { source: 'path', path: '/x' }).next());
    expect(error).toMatchObject({ status: 301 });
    expect((error as Error).message).toMatch(
      /^301 status code \(redirect to \/v2\/browsers\/br_1\/logs\/stream, not followed/,
    );
    expect(seen).toHaveLength(1);
  });

  it('through the raw client is handed back as it came, not followed', async () => {
    answer = (response) => response.writeHead(307, { location: refusing }).end();
    const raw = createRawClient(createClient({ token: TOKEN, baseUrl }));
    const { response } = await raw.PATCH('/profiles/{id_or_name}', {
      params: { path: { id_or_name: 'checkout-agent' } },
      body: { name: 'n' },
    });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(refusing);
    expect(seen).toHaveLength(1);
  });
});

describe('a base URL', () => {
  const refused: Array<[string, string, string]> = [
    ['http://127.0.0.1:1/p#frag', 'fragment', 'must not hold a fragment'],
    ['http://127.0.0.1:1/p#', 'fragment', 'must not hold a fragment'],
    ['http://127.0.0.1:1/p?tenant=1', 'query', 'must not hold a query'],
    ['http://127.0.0.1:1/p?', 'query', 'must not hold a query'],
    [' http://127.0.0.1:1/p', 'whitespace', 'must not hold whitespace'],
    ['http://127.0.0.1:1/p ', 'whitespace', 'must not hold whitespace'],
    ['http://127.0.0.1:1/p\n', 'whitespace', 'must not hold whitespace'],
    ['http://127.0.0.1:1/a b', 'whitespace', 'must not hold whitespace'],
    ['http://user:hunter2@127.0.0.1:1/p', 'credentials', 'must not hold credentials'],
    ['http://user@127.0.0.1:1/p', 'credentials', 'must not hold credentials'],
    ['ftp://127.0.0.1:1/p', 'httpUrl', 'must be an absolute http(s) URL'],
    ['api.example.com', 'httpUrl', 'must be an absolute http(s) URL'],
  ];

  it.each(refused)(
    '%j is refused at createClient with a ValidationError naming it (rule %s)',
    (baseUrl, rule, says) => {
      const fetch = scriptedFetch(json(200, PROFILE));
      let error: unknown;
      try {
        createClient({ token: TOKEN, baseUrl, fetch });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ field: 'baseUrl', rule });
      expect((error as Error).message).toMatch(new RegExp(`^baseUrl: ${says.replace(/[()]/g, '\\$&')}`));
      expect((error as Error).message).not.toContain('hunter2');
    },
  );

  it('from the environment is held to the same rules, and the message names the variable', () => {
    process.env['BROWSER_CLOUD_BASE_URL'] = 'http://127.0.0.1:1/p?tenant=1';
    try {
      expect(() => createClient({ token: TOKEN })).toThrow(/^baseUrl: must not hold a query.*BROWSER_CLOUD_BASE_URL/);
    } finally {
      delete process.env['BROWSER_CLOUD_BASE_URL'];
    }
  });

  it('with a path prefix and trailing slashes is accepted, the slashes removed', async () => {
    const fetch = scriptedFetch(json(200, PROFILE));
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1/p/', fetch });
    await client.profiles.rename('prof_1', { name: 'n' });
    expect(fetch.requests[0]?.url).toBe('http://127.0.0.1:1/p/profiles/prof_1');
  });
});

describe('strings that are not well-formed Unicode (a lone surrogate)', () => {
  const fetch = scriptedFetch(json(200, PROFILE));
  const client = createClient({ token: TOKEN, baseUrl: BASE, fetch });
  const lone = ['\ud800', 'a\udc00b', 'x\ud83d'];

  it.each(lone)('%j is refused before sending, in a path, a query or a body, naming the field', async (bad) => {
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['path.id_or_name', () => client.profiles.rename(bad, { name: 'n' })],
      ['body.name', () => client.profiles.rename('prof_1', { name: bad })],
      ['path.id', () => client.auth.connections.login(bad)],
      ['body.proxy.name', () => client.auth.connections.login('ac_1', { proxy: { name: bad } })],
      ['path.id', async () => client.browsers.logs.stream(bad, { source: 'path', path: '/x' })],
      ['query.path', async () => client.browsers.logs.stream('br_1', { source: 'path', path: bad })],
      [
        'query.supervisor_process',
        async () => client.browsers.logs.stream('br_1', { source: 'supervisor', supervisor_process: bad }),
      ],
    ];
    for (const [field, call] of cases) {
      const error = await failure(call());
      expect(error, field).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ field, rule: 'wellFormed' });
      expect((error as Error).message).toMatch(
        new RegExp(
          `^${field.replace(/\./g, '\\.')}: must be well-formed Unicode \\(it holds a lone surrogate, U\\+D[89A-F][0-9A-F]{2}\\)$`,
        ),
      );
    }
    const raw = createRawClient(client);
    const rawError = await failure(
      raw.PATCH('/profiles/{id_or_name}', { params: { path: { id_or_name: bad } }, body: { name: 'n' } }),
    );
    expect(rawError).toMatchObject({ field: 'path.id_or_name', rule: 'wellFormed' });
    expect(fetch.requests).toHaveLength(0);
  });

  it('a name that spells an escape (`\\ud800`, a backslash and five letters) is well-formed, and sent as it is', async () => {
    fetch.mockClear();
    await client.profiles.rename('prof_1', { name: '\\ud800\\udc00' });
    expect(await fetch.requests.at(-1)?.json()).toEqual({ name: '\\ud800\\udc00' });
  });

  it('a lone surrogate beside such a name, deep in a body, is found and named', async () => {
    const proxy = { name: '\\ud83d', id: undefined, ['k\udfff']: 1 };
    const error = await failure(client.auth.connections.login('ac_1', { proxy } as never));
    expect(error).toMatchObject({ field: 'body.proxy (a property name)', rule: 'wellFormed' });
  });

  it('a surrogate pair (an emoji) is well-formed, and sent', async () => {
    fetch.mockClear();
    await client.profiles.rename('agent-😀', { name: 'renamed-😀' });
    expect(fetch.requests.at(-1)?.url).toBe(`${BASE}/profiles/agent-${encodeURIComponent('😀')}`);
    expect(await fetch.requests.at(-1)?.json()).toEqual({ name: 'renamed-😀' });
  });
});

describe('an error body that starts and then stalls', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A response of `status` whose body sends `start` and then nothing, never ending. */
  const stalling = (status: number, start: string) => () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(start));
        },
      }),
      { status, headers: { 'content-type': 'application/json' } },
    );

  it(`gives the status's APIError after ERROR_BODY_TIMEOUT_MS, not a timeout, and a 4xx is not retried`, async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(stalling(404, '{"code":"not_fo'));
    const client = createClient({ token: TOKEN, baseUrl: BASE, fetch, timeoutMs: 60_000, maxRetries: 2 });
    let outcome: unknown;
    void client.profiles.rename('prof_1', { name: 'n' }).catch((error: unknown) => {
      outcome = error;
    });
    await vi.advanceTimersByTimeAsync(ERROR_BODY_TIMEOUT_MS);
    expect(outcome).toBeInstanceOf(NotFoundError);
    expect((outcome as Error).message).toBe(
      `404 status code (body not complete within ${ERROR_BODY_TIMEOUT_MS} ms, after 15 bytes: {"code":"not_fo)`,
    );
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(fetch.requests).toHaveLength(1);
  });

  it('of a login gives its APIError the same way', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(stalling(409, '{'));
    const client = createClient({ token: TOKEN, baseUrl: BASE, fetch });
    let outcome: unknown;
    void client.auth.connections.login('ac_1').catch((error: unknown) => {
      outcome = error;
    });
    await vi.advanceTimersByTimeAsync(ERROR_BODY_TIMEOUT_MS);
    expect(outcome).toMatchObject({ status: 409 });
  });

  it('of the log stream gives its APIError the same way', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(stalling(403, '{"code":"forbidden"'));
    const client = createClient({ token: TOKEN, baseUrl: BASE, fetch });
    let outcome: unknown;
    void client.browsers.logs
      .stream('br_1', { source: 'path', path: '/x' })
      .next()
      .catch((error: unknown) => {
        outcome = error;
      });
    await vi.advanceTimersByTimeAsync(ERROR_BODY_TIMEOUT_MS);
    expect(outcome).toMatchObject({ status: 403 });
    expect(fetch.requests).toHaveLength(1);
  });

  it('of a retryable status (429) is retried as its status says', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(stalling(429, '{'), json(200, PROFILE));
    const client = createClient({ token: TOKEN, baseUrl: BASE, fetch, maxRetries: 1 });
    let outcome: unknown;
    void client.profiles.rename('prof_1', { name: 'n' }).then(
      (value) => (outcome = value),
      (error: unknown) => (outcome = error),
    );
    await vi.advanceTimersByTimeAsync(ERROR_BODY_TIMEOUT_MS + 60_000);
    expect(fetch.requests).toHaveLength(2);
    expect(outcome).toEqual(PROFILE);
  });
});

describe('a token short enough to be found in the data (a mock or sandbox user types "test")', () => {
  it('is not scrubbed from answers: a profile renamed to test-agent comes back so named', async () => {
    const fetch = scriptedFetch(json(200, { ...PROFILE, name: 'test-agent' }));
    const client = createClient({ token: 'test', baseUrl: BASE, fetch });
    expect(await client.profiles.rename('prof_1', { name: 'test-agent' })).toEqual({ ...PROFILE, name: 'test-agent' });
  });

  it('of one letter rewrites no property name: the answer and a log event read as sent', async () => {
    const event = { event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message: 'e' };
    const fetch = scriptedFetch(
      json(200, PROFILE),
      () =>
        new Response(`id: e-1\ndata: ${JSON.stringify(event)}\n\n`, {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    const client = createClient({ token: 'e', baseUrl: BASE, fetch });
    expect(await client.profiles.rename('prof_1', { name: 'n' })).toEqual(PROFILE);
    const stream = client.browsers.logs.stream('br_1', { source: 'path', path: '/x' });
    expect((await stream.next()).value).toEqual(event);
    expect(stream.lastEventId).toBe('e-1');
  });

  it('is still scrubbed from errors', async () => {
    const fetch = scriptedFetch(
      json(400, { code: 'bad_request', message: 'bad key test' }, { 'x-request-id': 'test-1' }),
    );
    const client = createClient({ token: 'test', baseUrl: BASE, fetch });
    const error = await failure(client.profiles.rename('prof_1', { name: 'n' }));
    expect((error as Error).message).toBe('400 bad_request: bad key [REDACTED]');
    expect(error).toMatchObject({ requestId: '[REDACTED]-1' });
  });
});

describe('a token long enough to be a secret, echoed in an answer', () => {
  it('is replaced in values, and a property named after it is left out, never renamed', async () => {
    const fetch = scriptedFetch(json(200, { ...PROFILE, name: `n ${TOKEN}`, [`x_${TOKEN}`]: 1, zz_extra: [TOKEN] }));
    const client = createClient({ token: TOKEN, baseUrl: BASE, fetch });
    const profile = await client.profiles.rename('prof_1', { name: 'n' });
    expect(profile).toEqual({ ...PROFILE, name: 'n [REDACTED]', zz_extra: ['[REDACTED]'] });
    expect(findSecret(profile, TOKEN)).toEqual([]);
  });
});
