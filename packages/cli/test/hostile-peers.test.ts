import { CANNED, type HostileServer, refusingUrl, startHostileServer } from '@browser-cloud/test-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './memory-io.js';

// The built bin against peers that answer in ways a careless client mishandles, with the
// README's exit codes.
const TOKEN = 'sk_hostile_peers_5e6f7a8b9c';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = (url: string, token = TOKEN) => ({ BROWSER_CLOUD_BASE_URL: url, BROWSER_CLOUD_API_KEY: token });

describe('a redirect', () => {
  it('is not followed: each command is sent once and exits 7, naming the Location where fetch says it', async () => {
    const target = await refusingUrl('/moved');
    server = await startHostileServer((request, response) => {
      request.resume();
      response.writeHead(307, { location: target }).end();
    });
    const said = 'not followed: point the base URL at the address that answers';
    for (const [args, redirect] of [
      [['auth', 'connections', 'login', 'ac_1'], `307 status code (redirect to ${target}, ${said})`],
      // With a body, Node's fetch is asked to refuse a redirect, and does not say where it leads.
      [['profiles', 'rename', 'checkout-agent', 'x'], `0 status code (redirect, ${said})`],
    ] as const) {
      const result = await runCli([...args], env(server.url));
      expect(result.code, result.stderr).toBe(7);
      expect(result.stderr).toBe(`browser-cloud: ${redirect}\n`);
    }
    expect(server.requests.map((request) => request.url)).toEqual([
      '/auth/connections/ac_1/login',
      '/profiles/checkout-agent',
    ]);
  });
});

describe('a base URL', () => {
  it.each([
    ['with a fragment', '/p#frag', 'must not hold a fragment'],
    ['with a query', '/p?tenant=1', 'must not hold a query'],
    ['with a bare "?"', '/p?', 'must not hold a query'],
  ])('%s is a configuration error: exit 3 naming it, nothing sent', async (_, suffix, says) => {
    server = await startHostileServer((_request, response) => response.writeHead(500).end());
    const result = await runCli(['profiles', 'rename', 'prof_1', 'x'], env(`${server.url}${suffix}`));
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(new RegExp(`^browser-cloud: baseUrl: ${says}.*BROWSER_CLOUD_BASE_URL`));
    expect(server.requests).toEqual([]);
  });

  it('with surrounding spaces is a configuration error too', async () => {
    server = await startHostileServer((_request, response) => response.writeHead(500).end());
    for (const url of [` ${server.url}/p`, `${server.url}/p `]) {
      const result = await runCli(['auth', 'connections', 'login', 'ac_1', '--json'], env(url));
      expect(result.code).toBe(3);
      expect(JSON.parse(result.stderr).error).toMatchObject({
        type: 'ValidationError',
        field: 'baseUrl',
        rule: 'whitespace',
      });
    }
    expect(server.requests).toEqual([]);
  });
});

describe('an error body that starts and then stalls', () => {
  it("gives the status's exit code (404: 5), once the body's own short bound has passed", async () => {
    server = await startHostileServer((request, response) => {
      request.resume();
      response.writeHead(404, { 'content-type': 'application/json' });
      response.write('{"code":"not_found","mess');
    });
    for (const args of [
      ['auth', 'connections', 'login', 'ac_1'],
      ['profiles', 'rename', 'prof_1', 'x'],
    ]) {
      const result = await runCli(args, env(server.url));
      expect(result.code, result.stderr).toBe(5);
      expect(result.stderr).toMatch(/^browser-cloud: 404 status code \(body not complete within 2000 ms/);
    }
    // The rename by ID is not retried: a 4xx is not.
    expect(server.requests).toHaveLength(2);
  });
});

describe('a short token (a mock or sandbox user types "test")', () => {
  it('leaves the answer as the server sent it: a profile renamed to test-agent is printed so named', async () => {
    server = await startHostileServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ...CANNED.profile, name: 'test-agent' }));
    });
    const result = await runCli(['profiles', 'rename', 'prof_1', 'test-agent', '--json'], env(server.url, 'test'));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'test-agent', created_at: CANNED.profile.created_at });
  });
});
