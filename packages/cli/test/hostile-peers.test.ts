import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CANNED, type HostileServer, startHostileServer } from '@browser-cloud/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin } from './run-bin.js';

// The built bin against peers that answer in ways a careless client mishandles, with the
// README's exit codes.
const TOKEN = 'sk_hostile_peers_5e6f7a8b9c';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = (url: string, token = TOKEN) => ({ BROWSER_CLOUD_BASE_URL: url, BROWSER_CLOUD_API_KEY: token });

describe('a base URL', () => {
  it.each([
    ['with a fragment', '/p#frag', 'must not hold a fragment'],
    ['with a query', '/p?tenant=1', 'must not hold a query'],
    ['with a bare "?"', '/p?', 'must not hold a query'],
  ])('%s is a configuration error: exit 3 naming it, nothing sent', async (_, suffix, says) => {
    server = await startHostileServer((_request, response) => response.writeHead(500).end());
    const result = await runBin(['profiles', 'rename', 'prof_1', 'x'], env(`${server.url}${suffix}`));
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(new RegExp(`^browser-cloud: baseUrl: ${says}.*BROWSER_CLOUD_BASE_URL`));
    expect(server.requests).toEqual([]);
  });

  it('with surrounding spaces is a configuration error too', async () => {
    server = await startHostileServer((_request, response) => response.writeHead(500).end());
    for (const url of [` ${server.url}/p`, `${server.url}/p `]) {
      const result = await runBin(['login', 'ac_1', '--json'], env(url));
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
