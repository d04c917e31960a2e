import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from './connection.js';
import { APIConnectionError, APIConnectionTimeoutError, ConflictError, NotFoundError } from './errors.js';
import { LOGIN_RESPONSE, PROFILE, TOKEN } from './test-support/mock-fetch.js';
import { transport } from './transport.js';

/** What the server saw, per request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let handler: (request: Seen, response: ServerResponse) => void = () => {};

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      seen.push(entry);
      handler(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  handler = (_, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
}

describe('the global fetch path, against a real local server', () => {
  it('sends the login with token, JSON body and content type', async () => {
    seen.length = 0;
    answer(200, LOGIN_RESPONSE, { 'x-request-id': 'req_1' });
    const client = createClient({ token: TOKEN, baseUrl, headers: { 'x-client': 'a' } });
    await expect(client.auth.connections.login('ac_1', { proxy: { id: 'prx_1' } })).resolves.toEqual(LOGIN_RESPONSE);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/auth/connections/ac_1/login',
      body: '{"proxy":{"id":"prx_1"}}',
    });
    expect(seen[0]?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'x-client': 'a',
    });
  });

  it('maps statuses to errors and does not retry a login after a response', async () => {
    seen.length = 0;
    answer(409, { code: 'conflict', message: 'a login flow is already in progress' });
    const client = createClient({ token: TOKEN, baseUrl });
    await expect(client.auth.connections.login('ac_1')).rejects.toBeInstanceOf(ConflictError);
    answer(500, { code: 'internal_error', message: 'x' });
    await expect(client.auth.connections.login('ac_1')).rejects.toMatchObject({ status: 500 });
    expect(seen).toHaveLength(2);
  });

  it('renames and reads the Profile; 404 with a request id', async () => {
    answer(200, PROFILE);
    const client = createClient({ token: TOKEN, baseUrl });
    await expect(client.profiles.rename('prof_1', { name: 'n' })).resolves.toEqual(PROFILE);
    answer(404, { code: 'not_found', message: 'resource not found' }, { 'x-request-id': 'req_404' });
    await expect(client.profiles.rename('prof_1', { name: 'n' })).rejects.toSatisfy(
      (e) => e instanceof NotFoundError && e.requestId === 'req_404',
    );
  });

  it('times out a server that does not answer, aborting the real request', async () => {
    // The request's arrival and its connection's close are events the server signals; only the
    // client's timer runs on fake time, so load on the machine cannot reorder them.
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let closed!: () => void;
    const closing = new Promise<void>((resolve) => {
      closed = resolve;
    });
    handler = (_, response) => {
      response.on('close', () => closed());
      arrived();
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const client = createClient({ token: TOKEN, baseUrl, timeoutMs: 100, maxRetries: 0 });
      const outcome = client.profiles.rename('prof_1', { name: 'n' }).catch((e: unknown) => e);
      await arrival;
      await vi.advanceTimersByTimeAsync(100);
      expect(await outcome).toBeInstanceOf(APIConnectionTimeoutError);
      await closing;
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries a login on a refused connection, which never reached a server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const attempts: number[] = [];
    const client = createClient({
      token: TOKEN,
      baseUrl: `http://127.0.0.1:${port}`,
      maxRetries: 1,
      fetch: (request) => {
        attempts.push(Date.now());
        return fetch(request);
      },
    });
    const error = await client.auth.connections.login('ac_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(JSON.stringify((error as Error).cause, Object.getOwnPropertyNames((error as Error).cause))).not.toContain(
      TOKEN,
    );
    expect(attempts).toHaveLength(2);
  });

  it('streams log events over the real connection', async () => {
    handler = (request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        `id: 1\ndata: {"event":"log","timestamp":"2026-11-22T19:58:03.120Z","message":"${request.headers.accept}"}\n\n`,
      );
    };
    const client = createClient({ token: TOKEN, baseUrl });
    const messages: string[] = [];
    for await (const event of client.browsers.logs.stream('br_1', { source: 'path', path: '/var/log/x.log' })) {
      messages.push(event.message);
    }
    expect(messages).toEqual(['text/event-stream, application/json;q=0.9']);
    expect(seen.at(-1)?.url).toBe('/browsers/br_1/logs/stream?source=path&path=%2Fvar%2Flog%2Fx.log');
  });
});

describe('transport', () => {
  it('gives an injected fetch a real Request with the headers, and the token over any Authorization', async () => {
    const received: Request[] = [];
    const { send } = transport(async (request) => {
      received.push(request);
      return new Response('ok');
    }, 't');
    await send('http://127.0.0.1:1/x', {
      method: 'POST',
      headers: new Headers({ a: '1', authorization: 'Bearer other' }),
      body: '{}',
    });
    expect(received[0]).toBeInstanceOf(Request);
    expect(received[0]?.method).toBe('POST');
    expect(received[0]?.headers.get('a')).toBe('1');
    expect(received[0]?.headers.get('authorization')).toBe('Bearer t');
    expect(await received[0]?.text()).toBe('{}');
  });

  it('sets the token on a real Request too (what raw middleware may hand over)', async () => {
    const received: Request[] = [];
    const { send } = transport(async (request) => {
      received.push(request);
      return new Response('ok');
    }, 't');
    await send(new Request('http://127.0.0.1:1/y', { headers: { authorization: 'Bearer other' } }));
    expect(received[0]?.headers.get('authorization')).toBe('Bearer t');
  });
});
