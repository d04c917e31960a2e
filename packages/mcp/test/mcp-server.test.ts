import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_FIXTURE_REFS as R,
  flowTypesOf,
  loadSandboxDocument,
  type RunningSandbox,
  startSandbox,
} from '@browser-cloud/sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadOpenApiDocument, OPENAPI_PATH, operations } from '@browser-cloud/openapi-document';
import { TOOL_DEFINITIONS } from '../src/generated/tool-definitions.js';
import type { ToolDefinition } from '../src/tool-definition.js';
import { effectiveHints } from './effective-hints.js';

// The built bin, driven as an MCP host drives it: a child process speaking MCP over stdio, with
// --tools=all, so that it lists a tool per operation however many the document has (beyond 40 it
// would start in dynamic mode: test/tool-choice.test.ts).
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const QUIET = { source: 'path', path: R.browsers.quiet.path } as const;

let sandbox: RunningSandbox;
const sessions: Array<{ client: Client; stderr: string[] }> = [];

async function connect(token: string, baseUrl = sandbox.url): Promise<{ client: Client; stderr: string[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--tools=all'],
    env: { PATH: process.env['PATH'] ?? '', BROWSER_CLOUD_BASE_URL: baseUrl, BROWSER_CLOUD_API_KEY: token },
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'contract-test', version: '0.0.0' });
  await client.connect(transport);
  const session = { client, stderr };
  sessions.push(session);
  return session;
}

let mcp: Client;
/** Every text and structured result the server handed out, to search for the token. */
const handedOut: string[] = [];

async function call(name: string, args: Record<string, unknown>, client = mcp): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  handedOut.push(JSON.stringify(result));
  return result;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

async function control(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** Appends lines to the quiet log; resolves to a function giving the event id of line n of that log. */
const append = async (lines: string[]) => {
  const { first_id } = (await control(`/browsers/${R.browsers.quiet.id}/logs`, { ...QUIET, lines })) as {
    first_id: string;
  };
  // The sandbox's ids are the log's epoch and the line's position (unique across restarts).
  const epoch = first_id.slice(0, first_id.lastIndexOf('-'));
  return (n: number) => `${epoch}-${n}`;
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  mcp = (await connect(R.tokens.owner)).client;
});

afterAll(async () => {
  for (const session of sessions) await session.client.close();
  await sandbox?.close();
});

beforeEach(async () => {
  await control('/reset', {});
  // Each test's results are searched for the token by that test (afterEach), whatever ran before.
  handedOut.length = 0;
});

afterEach(() => {
  expect(handedOut.join('')).not.toContain(R.tokens.owner);
});

describe('tools/list', () => {
  it('lists a tool per operation of the document, with the generated schemas and annotations from its method', async () => {
    const { tools } = await mcp.listTools();
    const definitions = Object.values(TOOL_DEFINITIONS) as ToolDefinition[];
    expect(tools.map((tool) => tool.name)).toEqual(definitions.map((definition) => definition.name));
    const document = loadOpenApiDocument(OPENAPI_PATH);
    expect(definitions.map((definition) => definition.operationId)).toEqual(
      [...operations(document)].map((operation) => operation.operationId),
    );
    for (const operation of operations(document)) {
      const definition = definitions.find((d) => d.operationId === operation.operationId)!;
      const tool = tools.find((t) => t.name === definition.name)!;
      expect(tool.inputSchema).toEqual(definition.inputSchema);
      expect(tool.outputSchema).toEqual(definition.outputSchema);
      expect(tool.description).toBe(definition.description);
      expect(effectiveHints(tool.annotations)).toEqual({
        readOnlyHint: operation.method === 'get' || operation.method === 'head',
        destructiveHint: ['delete', 'put', 'patch'].includes(operation.method),
        // Repeatable for every value: a rename by name is not (once applied, the name is gone).
        idempotentHint: operation.repeatability.repeatable && Object.keys(operation.repeatability.when).length === 0,
        openWorldHint: true,
      });
      // What a 409 says comes from the document's description of it.
      const conflict = operation.responses['409']?.response.description;
      if (conflict) expect(definition.conflictHint).toContain(conflict.replace(/\s+/g, ' ').trim());
    }
  });
});

describe('login_auth_connection', () => {
  it('starts a flow, and answers a second login with an actionable 409 tool error', async () => {
    const first = await call('login_auth_connection', { id: R.authConnections.withoutCredentials });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({
      id: R.authConnections.withoutCredentials,
      flow_type: flowTypesOf(loadSandboxDocument()).login,
    });
    // Every property the document requires of the answer (its optional ones come and go by release).
    const { required = [] } = TOOL_DEFINITIONS.login_auth_connection.outputSchema as { required?: string[] };
    expect(required).not.toEqual([]);
    for (const name of required) expect(first.structuredContent).toHaveProperty(name);

    const second = await call('login_auth_connection', { id: R.authConnections.withoutCredentials });
    expect(second.isError).toBe(true);
    expect(text(second)).toMatch(/^The API answered 409 conflict: a login flow is already in progress/);
    expect(text(second)).toContain(TOOL_DEFINITIONS.login_auth_connection.conflictHint);
    expect(text(second)).toMatch(/Request ID: \S+/);
  });

  it('sends the overrides: proxy by name, record_session and telemetry', async () => {
    const result = await call('login_auth_connection', {
      id: R.authConnections.withoutCredentials,
      proxy: { name: R.proxies.datacenter.name },
      record_session: true,
      browser_telemetry: { enabled: false },
    });
    expect(result.isError).toBeFalsy();
    const flow = (await control(`/flows/${R.authConnections.withoutCredentials}`)) as Record<string, unknown>;
    expect(flow).toMatchObject({ record_session: true, proxy: { id: R.proxies.datacenter.id } });
  });

  it('refuses bad input with the client’s ValidationError text, before any request', async () => {
    const result = await call('login_auth_connection', {
      id: R.authConnections.withoutCredentials,
      proxy: { id: 'prx_1', name: 'both' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(
      'Invalid arguments, nothing was sent: body.proxy: must provide exactly one of "id" or "name"',
    );
    expect(await control('/flows')).toEqual({ flows: [] });
  });

  it('refuses an unknown argument and a missing id by name', async () => {
    const unknown = await call('login_auth_connection', {
      id: R.authConnections.withoutCredentials,
      zz_not_in_document: true,
    });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('zz_not_in_document: is not an argument of login_auth_connection');
    const missing = await call('login_auth_connection', {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('path.id: is required');
  });
});

describe('rename_profile', () => {
  it('renames by name; the same call again no longer finds the profile (not idempotent)', async () => {
    const args = { id_or_name: R.profiles.defaultProject.name, name: 'checkout-agent-eu' };
    const renamed = await call('rename_profile', args);
    expect(renamed.isError).toBeFalsy();
    expect(renamed.structuredContent).toMatchObject({ id: R.profiles.defaultProject.id, name: 'checkout-agent-eu' });
    const again = await call('rename_profile', args);
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/^The API answered 404 not_found: /);
  });

  it('a taken name is a 409 with what to do; a name over 255 characters is refused before sending', async () => {
    const taken = await call('rename_profile', {
      id_or_name: R.profiles.defaultProject.id,
      name: R.profiles.unscoped.name,
    });
    expect(taken.isError).toBe(true);
    expect(text(taken)).toContain('409 conflict');
    expect(text(taken)).toContain(TOOL_DEFINITIONS.rename_profile.conflictHint);
    const long = await call('rename_profile', { id_or_name: R.profiles.defaultProject.id, name: 'x'.repeat(256) });
    expect(text(long)).toBe('Invalid arguments, nothing was sent: body.name: must be at most 255 characters (got 256)');
  });
});

describe('tail_browser_logs', () => {
  async function page(args: Record<string, unknown>) {
    const result = await call('tail_browser_logs', { id: R.browsers.quiet.id, ...QUIET, ...args });
    expect(result.isError, text(result)).toBeFalsy();
    return result.structuredContent as {
      events: Array<{ id: string; message: string; truncated?: boolean }>;
      cursor: string;
      stopped: string;
    };
  }

  it('pages through the log with the cursor: no event lost or repeated', async () => {
    const lines = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`);
    const id = await append(lines);
    const seen: string[] = [];
    let cursor: string | undefined;
    const stops: string[] = [];
    for (let i = 0; i < 4; i++) {
      const result = await page({ max_events: 10, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...result.events.map((event) => event.message));
      stops.push(result.stopped);
      cursor = result.cursor;
    }
    expect(seen).toEqual(lines);
    expect(stops).toEqual(['max_events', 'max_events', 'end_of_log', 'end_of_log']);
    expect(cursor).toBe(id(25));
  });

  it('defaults to 100 events', async () => {
    const id = await append(Array.from({ length: 120 }, (_, i) => `line ${i + 1}`));
    const first = await page({});
    expect(first.events).toHaveLength(100);
    expect(first).toMatchObject({ cursor: id(100), stopped: 'max_events' });
  });

  it('bounds the bytes of a page, and cuts an event that alone exceeds the bound', async () => {
    const lines = [...Array.from({ length: 4 }, (_, i) => `${i}`.repeat(600)), 'é'.repeat(3000), 'after'];
    const id = await append(lines);
    const pages = [];
    let cursor = '';
    for (let i = 0; i < 6; i++) {
      const result = await page({ max_bytes: 1024, cursor });
      expect(JSON.stringify(result.events).length).toBeLessThanOrEqual(1024 * 2);
      expect(new TextEncoder().encode(JSON.stringify(result.events)).byteLength).toBeLessThanOrEqual(1024);
      pages.push(result);
      cursor = result.cursor;
    }
    const events = pages.flatMap((p) => p.events);
    expect(events.map((event) => event.id)).toEqual([1, 2, 3, 4, 5, 6].map(id));
    expect(events.slice(0, 4).map((event) => event.message)).toEqual(lines.slice(0, 4));
    expect(events[4]?.truncated).toBe(true);
    expect(lines[4]?.startsWith(events[4]?.message ?? 'x')).toBe(true);
    expect(events[5]).toEqual({ id: id(6), timestamp: expect.any(String), message: 'after' });
    expect(pages.map((p) => p.stopped)).toEqual([
      'max_bytes',
      'max_bytes',
      'max_bytes',
      'max_bytes',
      'max_bytes',
      'end_of_log',
    ]);
  });

  it('with follow, waits for new lines', async () => {
    const id = await append(['old']);
    // The longest wait the tool takes: the lines must come within it, however busy the machine.
    const pending = page({ follow: true, cursor: id(1), max_events: 2, wait_ms: 30_000 });
    // The append comes once the tool follows the source, so the lines reach it live.
    await until(async () => {
      const state = (await control('/state')) as {
        browsers: Array<{ id: string; logs: Array<{ followers: number }> }>;
      };
      return state.browsers.some((b) => b.id === R.browsers.quiet.id && b.logs.some((log) => log.followers > 0));
    });
    await append(['new 1', 'new 2']);
    const result = await pending;
    expect(result.events.map((event) => event.message)).toEqual(['new 1', 'new 2']);
    expect(result).toMatchObject({ cursor: id(3), stopped: 'max_events' });
  });

  it('with follow and no new line, returns at the time limit with the cursor unchanged', async () => {
    const id = await append(['only']);
    const result = await page({ follow: true, cursor: id(1), wait_ms: 200 });
    expect(result).toEqual({ events: [], cursor: id(1), stopped: 'time_limit' });
  });

  it('reports API errors and bad arguments as tool errors', async () => {
    const missing = await call('tail_browser_logs', { id: 'br_nope', ...QUIET });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^The API answered 404 not_found: /);
    const noPath = await call('tail_browser_logs', { id: R.browsers.quiet.id, source: 'path' });
    expect(text(noPath)).toBe('Invalid arguments, nothing was sent: query.path: is required');
    const tooMany = await call('tail_browser_logs', { id: R.browsers.quiet.id, ...QUIET, max_events: 1001 });
    expect(text(tooMany)).toBe('Invalid arguments, nothing was sent: max_events: must be <= 1000');
  });
});

describe('the token', () => {
  it('never reaches a tool result or the server’s stderr, even on a 401', async () => {
    const secret = 'sk_not_a_sandbox_token_5f1e2d';
    const session = await connect(secret);
    const result = await call(
      'rename_profile',
      { id_or_name: R.profiles.defaultProject.id, name: 'x' },
      session.client,
    );
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^The API answered 401 unauthorized: /);
    // Where nothing listens: a sandbox that was started and stopped.
    const stopped = await startSandbox({ port: 0, quiet: true });
    await stopped.close();
    const unreachable = await connect(secret, stopped.url);
    const refused = await call('tail_browser_logs', { id: 'br_1', ...QUIET }, unreachable.client);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^APIConnectionError: /);
    // This test's own two results, then both servers' stderr.
    expect(handedOut).toHaveLength(2);
    for (const output of [...handedOut, ...session.stderr, ...unreachable.stderr]) expect(output).not.toContain(secret);
  });

  it('a server without a token refuses to start, naming the variable', async () => {
    const child = spawn(process.execPath, [BIN, '--tools=all'], {
      env: { PATH: process.env['PATH'] ?? '', BROWSER_CLOUD_BASE_URL: sandbox.url },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    expect(stderr).toContain('BROWSER_CLOUD_API_KEY');
  });
});

/** Polls a condition the code makes observable, with no fixed sleep (the test's time limit guards a hang). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}
