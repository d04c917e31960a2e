import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refusedTokenHint, TOKEN_ENV } from './config.js';
import { createClient } from './connection.js';
import { BrowserCloudError } from './errors.js';
import { createRawClient } from './raw.js';
import { findSecret } from './test-support/find-secret.js';
import { json, LOGIN_RESPONSE, networkError, PROFILE, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('createClient configuration', () => {
  it('requires a token, naming the environment variable', () => {
    delete process.env['BROWSER_CLOUD_API_KEY'];
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1' })).toThrow(BrowserCloudError);
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1' })).toThrow(/token.*BROWSER_CLOUD_API_KEY/);
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', token: '' })).toThrow(/BROWSER_CLOUD_API_KEY/);
  });

  it('requires a base URL, naming the option and the environment variable', () => {
    delete process.env['BROWSER_CLOUD_BASE_URL'];
    expect(() => createClient({ token: TOKEN })).toThrow(/`baseUrl`.*BROWSER_CLOUD_BASE_URL/);
  });

  it('reads token and base URL from the environment', async () => {
    process.env['BROWSER_CLOUD_API_KEY'] = TOKEN;
    process.env['BROWSER_CLOUD_BASE_URL'] = 'https://env.example.com/';
    const fetch = scriptedFetch(json(200, PROFILE));
    const client = createClient({ fetch });
    expect(client.baseUrl).toBe('https://env.example.com');
    await client.profiles.rename('prof_1', { name: 'x' });
    expect(fetch.requests[0]?.url).toBe('https://env.example.com/profiles/prof_1');
    expect(fetch.requests[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('runs where there is no process (browsers) or a process without env, and then needs the options', () => {
    // The stand-ins are removed again before anything else runs: the block is synchronous.
    for (const stand of [undefined, {}]) {
      vi.stubGlobal('process', stand);
      try {
        expect(() => createClient({ baseUrl: 'http://127.0.0.1:1' })).toThrow(/token.*BROWSER_CLOUD_API_KEY/);
        expect(() => createClient({ token: TOKEN })).toThrow(/`baseUrl`.*BROWSER_CLOUD_BASE_URL/);
        expect(createClient({ token: TOKEN, baseUrl: 'https://browser.example.com/' }).baseUrl).toBe(
          'https://browser.example.com',
        );
      } finally {
        vi.unstubAllGlobals();
      }
    }
  });

  it('options win over the environment', () => {
    process.env['BROWSER_CLOUD_BASE_URL'] = 'https://env.example.com';
    expect(createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:4010' }).baseUrl).toBe('http://127.0.0.1:4010');
  });

  it('rejects base URLs that are not absolute http(s) URLs', () => {
    for (const baseUrl of ['api.example.com', 'ftp://example.com', 'file:///etc', '/relative']) {
      expect(() => createClient({ token: TOKEN, baseUrl })).toThrow(/http\(s\) URL/);
    }
  });

  it('normalises trailing slashes and keeps a path prefix', async () => {
    const fetch = scriptedFetch(json(200, PROFILE));
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:4010/v0//', fetch });
    await client.profiles.rename('prof_1', { name: 'x' });
    expect(fetch.requests[0]?.url).toBe('http://127.0.0.1:4010/v0/profiles/prof_1');
    expect(client.baseUrl).toBe('http://127.0.0.1:4010/v0');
  });

  it('rejects negative or non-integer policy numbers', () => {
    const base = { token: TOKEN, baseUrl: 'http://127.0.0.1:1' };
    expect(() => createClient({ ...base, timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => createClient({ ...base, maxRetries: 1.5 })).toThrow(/maxRetries/);
    expect(() => createClient({ ...base, maxRetries: Number.NaN })).toThrow(/maxRetries/);
    expect(() => createClient({ ...base, timeoutMs: -1 })).toThrow('timeoutMs must be a non-negative number, got -1.');
    expect(() => createClient({ ...base, maxRetries: 1.5 })).toThrow(
      'maxRetries must be a non-negative integer, got 1.5.',
    );
    // A timeout needs no whole number of milliseconds.
    expect(createClient({ ...base, timeoutMs: 1.5 }).toJSON().timeoutMs).toBe(1.5);
  });
});

describe('refusedTokenHint', () => {
  it('names the variable the token is read from, and where it is set', () => {
    expect(refusedTokenHint()).toBe(`The API key was refused: check ${TOKEN_ENV} in the environment.`);
    expect(refusedTokenHint("the MCP server's configuration (its env)")).toBe(
      "The API key was refused: check BROWSER_CLOUD_API_KEY in the MCP server's configuration (its env).",
    );
  });
});

describe('requests', () => {
  it('sends client headers and per-call headers; the token cannot be overridden by them', async () => {
    const fetch = scriptedFetch(json(200, LOGIN_RESPONSE));
    const client = createClient({
      token: TOKEN,
      baseUrl: 'http://127.0.0.1:1',
      fetch,
      headers: { 'x-client': 'a', authorization: 'Bearer other' },
    });
    await client.auth.connections.login('ac_1', undefined, { headers: { 'x-call': 'b' } });
    const sent = fetch.requests[0]!;
    expect(sent.headers.get('x-client')).toBe('a');
    expect(sent.headers.get('x-call')).toBe('b');
    expect(sent.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('createRawClient gives the openapi-fetch client, authenticated, in { data, error } style', async () => {
    const fetch = scriptedFetch(json(200, PROFILE), json(404, { code: 'not_found', message: 'resource not found' }));
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch });
    const raw = createRawClient(client);
    const ok = await raw.PATCH('/profiles/{id_or_name}', {
      params: { path: { id_or_name: 'prof_1' } },
      body: { name: 'x' },
    });
    expect(ok.data).toEqual(PROFILE);
    expect(fetch.requests[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    const missing = await raw.PATCH('/profiles/{id_or_name}', {
      params: { path: { id_or_name: 'nope' } },
      body: { name: 'x' },
    });
    expect(missing.error).toEqual({ code: 'not_found', message: 'resource not found' });
    expect(missing.response.status).toBe(404);
  });

  it('createRawClient sends the client headers, and holds no token', async () => {
    const fetch = scriptedFetch(json(200, PROFILE));
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch, headers: { 'x-client': 'a' } });
    const raw = createRawClient(client);
    expect(findSecret(raw, TOKEN)).toEqual([]);
    await raw.PATCH('/profiles/{id_or_name}', { params: { path: { id_or_name: 'prof_1' } }, body: { name: 'x' } });
    expect(fetch.requests[0]?.url).toBe('http://127.0.0.1:1/profiles/prof_1');
    expect(fetch.requests[0]?.headers.get('x-client')).toBe('a');
  });

  it('createRawClient refuses anything but a client made by createClient', () => {
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1' });
    expect(() => createRawClient({ ...client })).toThrow(BrowserCloudError);
  });
});

describe('the client never shows its token', () => {
  it('not in JSON, inspect, String or its enumerable properties', () => {
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1' });
    expect(JSON.stringify(client)).toBe('{"baseUrl":"http://127.0.0.1:1","timeoutMs":60000,"maxRetries":2}');
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(TOKEN);
    expect(inspect(client)).toBe(
      "{\n  BrowserCloudClient: { baseUrl: 'http://127.0.0.1:1', timeoutMs: 60000, maxRetries: 2 }\n}",
    );
    expect(String(client)).not.toContain(TOKEN);
    expect(
      Object.values(client)
        .map((v) => inspect(v, { depth: 5 }))
        .join(''),
    ).not.toContain(TOKEN);
  });
});

describe('nothing the client hands out holds the token, in any property', () => {
  const sseBody = (text: string) => () =>
    new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  const event = `id: 1\ndata: ${JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:00.000Z', message: 'm' })}\n\n`;

  it('the client and every object reachable from it', () => {
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch: scriptedFetch(json(200, {})) });
    expect(findSecret(client, TOKEN)).toEqual([]);
  });

  it('a log stream, before, while and after it is read', async () => {
    const fetch = scriptedFetch(sseBody(event));
    const stream = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch }).browsers.logs.stream('br_1', {
      source: 'path',
      path: '/x',
    });
    expect(findSecret(stream, TOKEN)).toEqual([]);
    expect(inspect(stream, { showHidden: true, depth: 20 })).not.toContain(TOKEN);
    expect(JSON.stringify(stream) ?? '').not.toContain(TOKEN);
    await stream.next();
    expect(findSecret(stream, TOKEN)).toEqual([]);
    await stream.close();
    expect(findSecret(stream, TOKEN)).toEqual([]);
  });

  it('errors of requests and of the stream, with their causes', async () => {
    const echo = `Bearer ${TOKEN}`;
    const failing = scriptedFetch(
      json(404, { code: 'not_found', message: `no such profile (${echo})` }, { 'x-echo': echo }),
    );
    const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch: failing, maxRetries: 0 });
    const renameError = await client.profiles.rename('prof_1', { name: 'n' }).catch((e: unknown) => e);
    expect(renameError).toBeInstanceOf(Error);
    expect(findSecret(renameError, TOKEN)).toEqual([]);
    const streamError = await client.browsers.logs
      .stream('br_1', { source: 'path', path: '/x' })
      .next()
      .catch((e: unknown) => e);
    expect(streamError).toBeInstanceOf(Error);
    expect(findSecret(streamError, TOKEN)).toEqual([]);
    const down = scriptedFetch(networkError('ECONNRESET', `reset; Authorization: ${echo}`));
    const offline = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch: down, maxRetries: 0 });
    const connectionError = await offline.profiles.rename('prof_1', { name: 'n' }).catch((e: unknown) => e);
    expect(findSecret(connectionError, TOKEN)).toEqual([]);
  });
});
