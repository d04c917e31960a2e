import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { validateError } from '@browser-cloud/api-types/validators';
import { refusingUrl } from '@browser-cloud/test-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { MockStartError } from './mock-start-error.js';
import { startValidatingFront, type ValidatingFront, type ValidatingFrontOptions } from './validating-front.js';

const AUTH = { authorization: 'Bearer test-token' };
const LOGIN = '/auth/connections/ac_1/login';
const STREAM = '/browsers/br_1/logs/stream?source=path&path=%2Fx';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A stand-in for Prism that records what reaches it; `answer` writes its response. */
async function startUpstream(answer: (res: ServerResponse, seen: Seen) => void = defaultAnswer) {
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() };
    seen.push(request);
    answer(res, request);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())).then(() => {}));
  cleanups.push(async () => server.closeAllConnections());
  return { url: `http://127.0.0.1:${port}`, seen, server };
}

function defaultAnswer(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
  res.end('{"ok":true}');
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function front(options: Partial<ValidatingFrontOptions> & Pick<ValidatingFrontOptions, 'upstream'>) {
  const started: ValidatingFront = await startValidatingFront(options);
  cleanups.push(() => started.close());
  return started;
}

async function errorBody(
  response: Response,
): Promise<{ code: string; message: string; details?: { message?: string }[] }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await response.json();
  expect(validateError(body), JSON.stringify(validateError.errors)).toBe(true);
  return body;
}

/** Sends raw bytes and resolves with everything the server wrote before closing. */
async function raw(url: string, bytes: string): Promise<string> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(bytes);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'close');
  return Buffer.concat(chunks).toString();
}

describe('the validating front', () => {
  it('passes a valid request to Prism unchanged and its answer back unchanged', async () => {
    const upstream = await startUpstream((res) => {
      res.writeHead(409, { 'content-type': 'application/json', 'x-request-id': 'req_9' });
      res.end('{"code":"conflict","message":"in progress"}');
    });
    const { url } = await front({ upstream: upstream.url });
    const body = '{"proxy":{"id":"prx_1"}}';
    const response = await fetch(`${url}${LOGIN}`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json', prefer: 'code=409', 'x-custom': 'yes' },
      body,
    });
    expect(response.status).toBe(409);
    expect(response.headers.get('x-request-id')).toBe('req_9');
    expect(await response.text()).toBe('{"code":"conflict","message":"in progress"}');
    expect(upstream.seen).toHaveLength(1);
    const [seen] = upstream.seen;
    expect(seen).toMatchObject({ method: 'POST', url: LOGIN, body });
    expect(seen!.headers).toMatchObject({
      authorization: AUTH.authorization,
      prefer: 'code=409',
      'x-custom': 'yes',
      'content-type': 'application/json',
      'content-length': String(body.length),
      host: new URL(upstream.url).host,
    });
  });

  it('streams an answer through as it comes, not when it ends', async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const upstream = await startUpstream((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      void finished.then(() => res.end('data: {"n":2}\n\n'));
    });
    const { url } = await front({ upstream: upstream.url });
    const response = await fetch(`${url}${STREAM}`, { headers: AUTH });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    // The first event arrives while Prism's answer is still open.
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: {"n":1}\n\n');
    finish();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe('data: {"n":2}\n\n');
    // The query went to Prism as sent.
    expect(upstream.seen.map((s) => s.url)).toEqual([STREAM]);
  });

  it('drops the request to Prism when the client goes away mid-stream', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    const upstream = await startUpstream((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
      res.on('close', upstreamClosed);
    });
    const { url } = await front({ upstream: upstream.url });
    const controller = new AbortController();
    const response = await fetch(`${url}${STREAM}`, { headers: AUTH, signal: controller.signal });
    await response.body!.getReader().read();
    controller.abort();
    await closed;
  });

  it('answers refused requests itself: Prism never sees them', async () => {
    const upstream = await startUpstream();
    const { url } = await front({ upstream: upstream.url });
    const query = await fetch(`${url}/browsers/br_1/logs/stream?source=path`, { headers: AUTH });
    expect(query.status).toBe(400);
    expect(await errorBody(query)).toEqual({
      code: 'bad_request',
      message: 'the query is invalid',
      details: [{ code: 'invalid_input', message: expect.stringMatching(/^path: is required$/) }],
    });
    const nullBody = await fetch(`${url}${LOGIN}`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: 'null',
    });
    expect(nullBody.status).toBe(400);
    expect((await errorBody(nullBody)).details?.[0]?.message).toMatch(/^body: /);
    const noToken = await fetch(`${url}${LOGIN}`, { method: 'POST' });
    expect(noToken.status).toBe(401);
    expect(await errorBody(noToken)).toEqual({
      code: 'unauthorized',
      message: 'missing or invalid authorization token',
    });
    expect(upstream.seen).toEqual([]);
  });

  it('refuses lone surrogates (a name that could never be addressed again) before Prism sees them', async () => {
    const upstream = await startUpstream();
    const { url } = await front({ upstream: upstream.url });
    const inBody = await fetch(`${url}/profiles/p1`, {
      method: 'PATCH',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"a\\ud800b"}',
    });
    expect(inBody.status).toBe(400);
    expect(await errorBody(inBody)).toEqual({
      code: 'bad_request',
      message: 'the request body is invalid',
      details: [{ code: 'invalid_input', message: 'name: must be well-formed Unicode (it holds a lone surrogate)' }],
    });
    const inPath = await fetch(`${url}/profiles/%ED%A0%80`, {
      method: 'PATCH',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"a"}',
    });
    expect(inPath.status).toBe(400);
    expect(await errorBody(inPath)).toMatchObject({ code: 'bad_request', message: 'the path is invalid' });
    expect(upstream.seen).toEqual([]);
  });

  it.each([
    ['no Authorization header', {}],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('answers %s with 401 before reading the body', async (_what, headers) => {
    const upstream = await startUpstream();
    const { url } = await front({ upstream: upstream.url });
    const response = await fetch(`${url}/profiles/p1`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: 'null',
    });
    expect(response.status).toBe(401);
    expect(await errorBody(response)).toEqual({
      code: 'unauthorized',
      message: 'missing or invalid authorization token',
    });
    expect(upstream.seen).toEqual([]);
  });

  it.each(['Bearer My API Key', 'bearer t'])(
    'accepts any non-empty bearer credentials (%s): a mock cannot know real keys',
    async (authorization) => {
      const upstream = await startUpstream();
      const { url } = await front({ upstream: upstream.url });
      const response = await fetch(`${url}${LOGIN}`, { method: 'POST', headers: { authorization } });
      expect(response.status).toBe(200);
      expect(upstream.seen.map((s) => s.headers.authorization)).toEqual([authorization]);
    },
  );

  it.each([
    ['a declared length', { 'content-length': '65' }],
    ['a chunked body', { 'transfer-encoding': 'chunked' }],
  ])('answers 413 to a body over the limit (%s), without reading it all or passing it on', async (_what, headers) => {
    const upstream = await startUpstream();
    const { url } = await front({ upstream: upstream.url, maxBodyBytes: 64 });
    const body = `{"name":"${'n'.repeat(54)}"}`;
    expect(body.length).toBe(65);
    const framed =
      'transfer-encoding' in headers
        ? `${(41).toString(16)}\r\n${body.slice(0, 41)}\r\n${(24).toString(16)}\r\n${body.slice(41)}\r\n0\r\n\r\n`
        : body;
    const answer = await raw(
      url,
      `PATCH /profiles/p1 HTTP/1.1\r\nhost: x\r\nauthorization: Bearer t\r\ncontent-type: application/json\r\n${Object.entries(
        headers,
      )
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n${framed}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    const json = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(validateError(json)).toBe(true);
    expect(json).toEqual({ code: 'payload_too_large', message: 'the request body is larger than 64 bytes' });
    expect(upstream.seen).toEqual([]);
  });

  it('answers a request the HTTP parser cannot read with an Error body', async () => {
    const { url } = await front({ upstream: (await startUpstream()).url });
    const answer = await raw(url, 'GET /x HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const json = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(validateError(json)).toBe(true);
    expect(json).toMatchObject({ code: 'bad_request', message: 'the request is not valid HTTP/1.1' });
  });

  it('answers 408 and closes a request whose body stalls, instead of holding it', async () => {
    const upstream = await startUpstream();
    const { url } = await front({ upstream: upstream.url, requestTimeoutMs: 300 });
    // Ten bytes announced, two sent: the request never completes on its own.
    const answer = await raw(
      url,
      'PATCH /profiles/p1 HTTP/1.1\r\nhost: x\r\nauthorization: Bearer t\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n{"',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(upstream.seen).toEqual([]);
  });

  it('holds a request that arrives while Prism is starting and answers it once Prism is ready', async () => {
    const upstream = await startUpstream();
    let ready!: (url: string) => void;
    const { url } = await front({ upstream: new Promise<string>((resolve) => (ready = resolve)) });
    let settled = false;
    const early = fetch(`${url}${LOGIN}`, { method: 'POST', headers: AUTH }).finally(() => (settled = true));
    // The front has the request (it refuses an invalid one at once) but waits for Prism.
    const invalid = await fetch(`${url}${LOGIN}`, { method: 'POST', headers: {} });
    expect(invalid.status).toBe(401);
    expect(settled).toBe(false);
    ready(upstream.url);
    const answer = await early;
    expect(answer.status).toBe(200);
    expect(upstream.seen.map((s) => s.url)).toEqual([LOGIN]);
  });

  it('answers 502 to held requests when Prism does not start, and when Prism does not answer', async () => {
    let failed!: (error: Error) => void;
    const starting = await front({ upstream: new Promise<string>((_, reject) => (failed = reject)) });
    const held = fetch(`${starting.url}${LOGIN}`, { method: 'POST', headers: AUTH });
    failed(new Error('Prism exited (code 1)'));
    const notStarted = await held;
    expect(notStarted.status).toBe(502);
    expect(await errorBody(notStarted)).toMatchObject({
      code: 'bad_gateway',
      message: 'Prism did not start (Prism exited (code 1))',
    });

    const { url } = await front({ upstream: await refusingUrl('') });
    const gone = await fetch(`${url}${LOGIN}`, { method: 'POST', headers: AUTH });
    expect(gone.status).toBe(502);
    expect(await errorBody(gone)).toMatchObject({
      code: 'bad_gateway',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('fails with one clear line when its port is taken', async () => {
    const taken = await front({ upstream: (await startUpstream()).url });
    const port = Number(new URL(taken.url).port);
    const error = await startValidatingFront({ upstream: 'http://127.0.0.1:1', port }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockStartError);
    expect(error).toMatchObject({
      reason: 'port-in-use',
      message: `port ${port} on 127.0.0.1 is already in use: stop what holds it, or choose another port (PORT=…)`,
    });
  });
});
