import { gzipBomb, type HostileServer, maxRssReport, startHostileServer } from '@browser-cloud/test-servers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';

// The built bin, driven over stdio, against a server that answers as an attacker would: no
// token in any result or on stderr, no hang, bounded memory.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const TOKEN = 'sk_hostile_mcp_1a2b3c4d';
/** The MCP server's memory bound on any answer (the issue's: under 256 MiB). */
const MAX_RSS_MIB = 256;

let server: HostileServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function connect(url: string, extraEnv: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--tools=all'],
    env: {
      PATH: process.env['PATH'] ?? '',
      BROWSER_CLOUD_BASE_URL: url,
      BROWSER_CLOUD_API_KEY: `${TOKEN}\n`,
      ...extraEnv,
    },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  client = new Client({ name: 'hostile', version: '0.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client!.callTool({ name, arguments: args })) as CallToolResult;
  return { call, stderr };
}

const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('a gzip bomb as a 2xx answer', () => {
  let bomb: Buffer;
  beforeAll(async () => {
    bomb = await gzipBomb(512 * 1024 * 1024);
  });

  it('is a tool error naming the bound; the server stays under 256 MiB and goes on serving', async () => {
    server = await startHostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(bomb);
    });
    const rss = maxRssReport();
    const { call } = await connect(server.url, rss.env);
    for (let i = 0; i < 3; i++) {
      const result = await call('rename_profile', { id_or_name: 'prof_1', name: 'x' });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(
        /^BrowserCloudError: The response body is over 1048576 bytes \(MAX_RESPONSE_BODY_BYTES/,
      );
    }
    await client!.close();
    client = undefined;
    // Reported at exit (an empty report would read 0).
    console.info(`peak memory of the MCP server on a gzip bomb: ${rss.read().toFixed(0)} MiB`);
    expect(rss.read()).toBeGreaterThan(10);
    expect(rss.read()).toBeLessThan(MAX_RSS_MIB);
  });
});

describe('a log stream that stalls after its headers', () => {
  it('returns at wait_ms with what it has', async () => {
    server = await startHostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        `id: 1\ndata: ${JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message: 'a' })}\n\n`,
      );
    });
    const { call } = await connect(server.url);
    const result = await call('tail_browser_logs', { id: 'br_1', source: 'path', path: '/x.log', wait_ms: 1000 });
    // Whether the one event made it within wait_ms is the machine's business; that the call
    // returns, at the time limit, with a cursor matching what it returned, is the tool's.
    const { events, cursor, stopped } = result.structuredContent as {
      events: Array<{ id: string }>;
      cursor: string;
      stopped: string;
    };
    expect(stopped).toBe('time_limit');
    expect(events.length).toBeLessThanOrEqual(1);
    expect(cursor).toBe(events[0]?.id ?? '');
  });
});

describe('the token, given with a trailing newline and echoed by the server', () => {
  it('is in no result and not on stderr; a 401 says which variable to check', async () => {
    server = await startHostileServer((request, response) => {
      const echoed = request.headers.authorization ?? '';
      if (request.url?.startsWith('/browsers/')) {
        const data = JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message: echoed });
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`id: ${echoed.slice(7)}\ndata: ${data}\n\n`);
        return;
      }
      response.writeHead(401, { 'content-type': 'application/json', 'x-request-id': echoed });
      response.end(JSON.stringify({ code: 'unauthorized', message: `bad key ${echoed}`, [echoed]: 1 }));
    });
    const { call, stderr } = await connect(server.url);
    const refused = await call('rename_profile', { id_or_name: 'prof_1', name: 'x' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('check BROWSER_CLOUD_API_KEY');
    const tailed = await call('tail_browser_logs', { id: 'br_1', source: 'path', path: '/x.log' });
    expect(tailed.structuredContent).toMatchObject({
      events: [{ message: 'Bearer [REDACTED]' }],
      cursor: '[REDACTED]',
    });
    expect(server.requests.map((request) => request.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    for (const output of [JSON.stringify([refused, tailed]), ...stderr]) expect(output).not.toContain(TOKEN);
  });
});

describe('a profile addressed as "." or ".."', () => {
  it('is a tool error saying to address it by its ID; nothing is sent', async () => {
    server = await startHostileServer((_request, response) => response.writeHead(500).end());
    const { call } = await connect(server.url);
    for (const name of ['.', '..']) {
      const result = await call('rename_profile', { id_or_name: name, name: 'x' });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(
        /^Invalid arguments, nothing was sent: path\.id_or_name: .*address the profile by its ID$/,
      );
    }
    expect(server.requests).toEqual([]);
  });
});
