// The official SDK's workflow against `npm run mock`: its generator's tests start a Prism mock,
// wait for the port and send at once, with the key `My API Key` (a bearer value with spaces).
// `@onkernel/sdk` does not ship those tests, so this file does what they do with the SDK itself:
// the same client settings (default retries included), the same call pattern (asResponse, await,
// withResponse; `/_stainless_unknown_path` to check that request options are passed), and the
// three operations of the document called as the SDK calls them, ids aside.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { getAt, loadOpenApiDocument } from '@browser-cloud/openapi-document';
import Kernel from '@onkernel/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const FLOW_TYPES = getAt(loadOpenApiDocument(), '/components/schemas/LoginResponse/properties/flow_type/enum');

// The built CLI (the package's test script builds first), as `npm run mock` runs it after its build.
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The front's URL, from the line the mock prints the moment its port opens (PORT=0: the system picks it). */
async function frontBound(child: ChildProcessWithoutNullStreams): Promise<string> {
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    const bound = /Mock front bound to (http:\/\/\S+?);/.exec(stdout);
    if (bound) return bound[1]!;
    if (exited) throw new Error(`the mock exited before its port opened:\n${stdout}`);
    await Promise.race([once(child.stdout, 'data'), once(child, 'exit')]);
  }
}

/** Asserts what every Stainless test asserts of a successful call. */
async function expectAnswered<T>(
  responsePromise: PromiseLike<T> & {
    asResponse(): Promise<Response>;
    withResponse(): Promise<{ data: T; response: Response }>;
  },
): Promise<T> {
  const rawResponse = await responsePromise.asResponse();
  expect(rawResponse).toBeInstanceOf(Response);
  const response = await responsePromise;
  expect(response).not.toBeInstanceOf(Response);
  const dataAndResponse = await responsePromise.withResponse();
  expect(dataAndResponse.data).toBe(response);
  expect(dataAndResponse.response).toBe(rawResponse);
  return response;
}

const UNKNOWN_PATH = { path: '/_stainless_unknown_path' };
const ALL_LOGIN_PARAMS = {
  browser_telemetry: {
    browser: {
      captcha: { enabled: true },
      connection: { enabled: true },
      console: { enabled: true },
      control: { enabled: true },
      interaction: { enabled: true },
      network: { enabled: true },
      page: { enabled: true },
      screenshot: { enabled: true },
      system: { enabled: true },
    },
    enabled: true,
  },
  proxy: { id: 'id', name: 'name' },
  record_session: true,
};

let mock: ChildProcessWithoutNullStreams;
let stdout = '';
/** Every answer the SDK received: status and retry count, in order. */
const answers: { status: number; retry: string | null; url: string }[] = [];
let client: Kernel;

beforeAll(async () => {
  // Its own process group, so that the SIGTERM at the end reaches Prism too.
  mock = spawn(process.execPath, [CLI], { cwd: ROOT, env: { ...process.env, PORT: '0' }, detached: true });
  mock.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    answers.push({
      status: response.status,
      retry: request.headers.get('x-stainless-retry-count'),
      url: request.url,
    });
    return response;
  };
  client = new Kernel({ apiKey: 'My API Key', baseURL: await frontBound(mock), fetch: recording });
});

afterAll(async () => {
  if (mock?.pid === undefined || mock.exitCode !== null) return;
  const exited = new Promise((resolve) => mock.once('exit', resolve));
  process.kill(-mock.pid, 'SIGTERM');
  await exited;
});

describe('the official SDK against npm run mock, from the moment its port opens', () => {
  // The first test runs as soon as the port accepts connections: no wait for the listening line.
  it('auth.connections.login', async () => {
    const response = await expectAnswered(client.auth.connections.login('ac_1'));
    expect(FLOW_TYPES).toContain(response.flow_type);
  });

  it('auth.connections.login with each body shape', async () => {
    for (const body of [
      {},
      { record_session: true },
      { proxy: { id: 'prx_1' } },
      {
        proxy: { name: 'residential-us-east' },
        browser_telemetry: { enabled: true, browser: { console: { enabled: true } } },
      },
      { browser_telemetry: { enabled: false } },
    ]) {
      const response = await expectAnswered(client.auth.connections.login('ac_1', body));
      expect(response.hosted_url).toEqual(expect.any(String));
    }
  });

  it('auth.connections.login: request options and params are passed correctly', async () => {
    await expect(client.auth.connections.login('ac_1', ALL_LOGIN_PARAMS, UNKNOWN_PATH)).rejects.toThrow(
      Kernel.NotFoundError,
    );
  });

  it('profiles.update: only required params, by id and by name', async () => {
    const byId = await expectAnswered(client.profiles.update('prof_1', { name: 'my-renamed-profile' }));
    expect(byId.id).toEqual(expect.any(String));
    await expectAnswered(client.profiles.update('checkout-agent', { name: 'My Renamed Profile' }));
    await expectAnswered(client.profiles.update('prof_1', { name: 'x'.repeat(255) }));
  });

  it('profiles.update: request options and params are passed correctly', async () => {
    await expect(client.profiles.update('prof_1', { name: 'name' }, UNKNOWN_PATH)).rejects.toThrow(
      Kernel.NotFoundError,
    );
  });

  it('browsers.logs.stream: each source, followed or not', async () => {
    for (const query of [
      { source: 'path', path: '/var/log/chromium/chrome_debug.log' },
      { source: 'supervisor', supervisor_process: 'chromium' },
      { source: 'path', path: '/var/log/chromium/chrome_debug.log', follow: true },
    ] as const) {
      const stream = await expectAnswered(client.browsers.logs.stream('br_1', query));
      const events = [];
      for await (const event of stream) events.push(event);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event).toMatchObject({ event: 'log', message: expect.any(String) });
    }
  });

  it('browsers.logs.stream: the one request the document forbids, source=path without path, answers 400', async () => {
    await expect(client.browsers.logs.stream('br_1', { source: 'path' })).rejects.toThrow(Kernel.BadRequestError);
  });

  it('browsers.logs.stream: request options and params are passed correctly', async () => {
    await expect(
      client.browsers.logs.stream('br_1', { source: 'path', path: 'path', follow: true }, UNKNOWN_PATH),
    ).rejects.toThrow(Kernel.NotFoundError);
  });

  it('took 16 calls, each answered on its first try, none with a 503, and the mock said it listens', async () => {
    expect(answers).toHaveLength(16);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.retry !== '0')).toEqual([]);
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(12).fill(200), 400, 404, 404, 404].sort());
    await vi.waitFor(() => expect(stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/), { timeout: 120_000 });
  });
});
