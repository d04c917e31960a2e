import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type HostileServer, refusingUrl, startHostileServer } from '@browser-cloud/test-servers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

// The built bin, driven over stdio, against peers that answer in ways a careless client
// mishandles, and given arguments a careless client chokes on.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const TOKEN = 'sk_hostile_peers_mcp_0a1b2c';
const PATH = process.env['PATH'] ?? '';

let server: HostileServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function connect(url: string) {
  client = new Client({ name: 'hostile-peers', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--tools=all'],
      env: { PATH, BROWSER_CLOUD_BASE_URL: url, BROWSER_CLOUD_API_KEY: TOKEN },
      stderr: 'pipe',
    }),
  );
  return async (name: string, args: Record<string, unknown>) =>
    (await client!.callTool({ name, arguments: args })) as CallToolResult;
}

const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('a redirect', () => {
  it('is not followed: the login is sent once, and the tool error names the Location', async () => {
    const target = await refusingUrl('/moved');
    server = await startHostileServer((request, response) => {
      request.resume();
      response.writeHead(308, { location: target }).end();
    });
    const call = await connect(server.url);
    const result = await call('login_auth_connection', { id: 'ac_1' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      `The API answered 308 status code (redirect to ${target}, not followed: point the base URL at the address that answers)`,
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('a base URL with a query, a fragment or whitespace', () => {
  it.each([
    'http://127.0.0.1:9/p?tenant=1',
    'http://127.0.0.1:9/p#frag',
    'http://127.0.0.1:9/p?',
    ' http://127.0.0.1:9/p',
  ])('%j stops the server at start-up with a message naming it (exit 2)', async (url) => {
    const child = spawn(process.execPath, [BIN, '--tools=all'], {
      env: { PATH, BROWSER_CLOUD_BASE_URL: url, BROWSER_CLOUD_API_KEY: TOKEN },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^browser-cloud-mcp: baseUrl: must not hold (a query|a fragment|whitespace).*BROWSER_CLOUD_BASE_URL/,
    );
  });
});

describe('arguments that are not well-formed Unicode (a lone surrogate)', () => {
  it('are a tool error naming the field and the rule; nothing is sent', async () => {
    server = await startHostileServer((_request, response) => response.writeHead(500).end());
    const call = await connect(server.url);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['rename_profile', { id_or_name: 'a\ud800', name: 'x' }, 'path.id_or_name'],
      ['rename_profile', { id_or_name: 'prof_1', name: 'x\udc00' }, 'body.name'],
      ['login_auth_connection', { id: '\ud83d' }, 'path.id'],
      ['tail_browser_logs', { id: 'br_1', source: 'path', path: '/x\ud800.log' }, 'query.path'],
    ];
    for (const [tool, args, field] of cases) {
      const result = await call(tool, args);
      expect(result.isError, tool).toBe(true);
      expect(text(result)).toMatch(
        new RegExp(`^Invalid arguments, nothing was sent: ${field.replace(/\./g, '\\.')}: must be well-formed Unicode`),
      );
    }
    expect(server.requests).toEqual([]);
  });
});
