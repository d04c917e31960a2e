import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  CANNED,
  type CannedAnswer,
  cannedAnswers,
  type HostileServer,
  startHostileServer,
} from '@browser-cloud/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The MCP server reads answers as a tolerant reader, whatever server answers: a property the
 * document does not know yet passes (and reaches the model), a missing required property or a
 * known one of the wrong type is a tool error naming the field. A server of canned answers plays
 * the service's next release; an MCP client of the SDK, which checks structured results against
 * the tools' output schemas, calls the built bin.
 */
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const { profile: PROFILE, login: LOGIN, event } = CANNED;

const ANSWERS: Record<string, CannedAnswer> = {
  'PATCH /profiles/extra': { type: 'application/json', body: JSON.stringify({ ...PROFILE, region: 'eu-west' }) },
  'PATCH /profiles/bare': { type: 'application/json', body: JSON.stringify({ name: 'renamed' }) },
  'POST /auth/connections/ac_extra/login': {
    type: 'application/json',
    body: JSON.stringify({ ...LOGIN, region: 'eu' }),
  },
  'POST /auth/connections/ac_bare/login': {
    type: 'application/json',
    body: JSON.stringify((({ hosted_url: _, ...rest }) => rest)(LOGIN)),
  },
  'GET /browsers/br_extra/logs/stream': { type: 'text/event-stream', body: event(1) + event(2, { level: 'info' }) },
  'GET /browsers/br_bad/logs/stream': { type: 'text/event-stream', body: event(1) + event(2, { message: null }) },
  // Only a heartbeat, with an ID: the place in the log, with no line to show.
  'GET /browsers/br_heartbeat/logs/stream': {
    type: 'text/event-stream',
    body: `id: 7\ndata: ${JSON.stringify({ event: 'sse_heartbeat', timestamp: '2026-11-22T19:58:07Z' })}\n\n`,
  },
};

let server: HostileServer;
let mcp: Client;

beforeAll(async () => {
  server = await startHostileServer(cannedAnswers(ANSWERS));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--tools=all'],
    env: {
      PATH: process.env['PATH'] ?? '',
      BROWSER_CLOUD_BASE_URL: server.url,
      BROWSER_CLOUD_API_KEY: 'sk_test_tolerant',
    },
    stderr: 'pipe',
  });
  mcp = new Client({ name: 'tolerant-reading-test', version: '0.0.0' });
  await mcp.connect(transport);
  // The SDK client checks structured results against the output schemas it has listed.
  await mcp.listTools();
});
afterAll(async () => {
  await mcp?.close();
  await server.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await mcp.callTool({ name, arguments: args })) as CallToolResult;
const text = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const TAIL = { source: 'path', path: '/var/log/chrome.log' };

describe('a property the document does not know yet', () => {
  it('in a Profile: rename_profile succeeds and hands it on', async () => {
    const result = await call('rename_profile', { id_or_name: 'extra', name: 'renamed' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ ...PROFILE, region: 'eu-west' });
  });

  it('in a login response: login_auth_connection succeeds', async () => {
    const result = await call('login_auth_connection', { id: 'ac_extra' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: 'ac_1', region: 'eu' });
  });

  it('in a log event: tail_browser_logs returns every event', async () => {
    const result = await call('tail_browser_logs', { id: 'br_extra', ...TAIL });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      events: [{ message: 'line 1' }, { message: 'line 2' }],
      stopped: 'end_of_log',
    });
  });
});

describe('a missing required property, or a known one of the wrong type', () => {
  it('a 200 rename answer without id and created_at is a tool error naming the field', async () => {
    const result = await call('rename_profile', { id_or_name: 'bare', name: 'renamed' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'InvalidResponseError: The answer of PATCH /profiles/bare cannot be read as a Profile: body.id: is required',
    );
  });

  it('a 200 login answer without hosted_url is a tool error naming the field', async () => {
    const result = await call('login_auth_connection', { id: 'ac_bare' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('body.hosted_url: is required');
  });

  it('a log event whose message is null is a tool error naming the field', async () => {
    const result = await call('tail_browser_logs', { id: 'br_bad', ...TAIL });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('event.message: must be string');
  });
});

describe('a call that returns no line', () => {
  it('returns where the stream stood: the ID of a heartbeat it read', async () => {
    const heartbeat = await call('tail_browser_logs', { id: 'br_heartbeat', ...TAIL });
    expect(heartbeat.structuredContent).toEqual({ events: [], cursor: '7', stopped: 'end_of_log' });
  });
});
