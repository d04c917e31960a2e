import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOpenApiDocument, OPENAPI_PATH } from '@browser-cloud/openapi-document';
import { DEFAULT_FIXTURE_REFS as R, type RunningSandbox, startSandbox } from '@browser-cloud/sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withCrudOperations } from '../../../scripts/lib/api-workflow-changes.mjs';
import { hostRuleViolations, toolDefinitions } from '../scripts/tool-definitions.mjs';
import { TOOL_DEFINITIONS } from '../src/generated/tool-definitions.js';
import type { ToolDefinition } from '../src/tool-definition.js';
import { MAX_LISTED_TOOLS, operationKindOf, resourceOf } from '../src/tool-selection.js';

// The built bin's choice of tools (--tools, --resource, --operation, --tool) driven as a host
// drives it: a child process speaking MCP over stdio, the SDK's own client, the sandbox behind.
// A large API is the repository's document with 100 CRUD operations over 20 resources added
// (`withCrudOperations`), its tools generated once and served by test/fixtures/serve-tools.mjs, the
// bin's command line over the tools of another document.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const SERVE = fileURLToPath(new URL('./fixtures/serve-tools.mjs', import.meta.url));
const DEFINITIONS = Object.values(TOOL_DEFINITIONS) as ToolDefinition[];
const META = ['list_api_endpoints', 'get_api_endpoint_schema', 'invoke_api_endpoint'];

let sandbox: RunningSandbox;
let scratch: string;
let largeTools: string;
const sessions: Client[] = [];
/** Everything the server handed out, searched for the token after each test. */
const handedOut: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  scratch = mkdtempSync(join(tmpdir(), 'mcp-tool-choice-'));
  const largeDocument = join(scratch, 'openapi.yaml');
  writeFileSync(largeDocument, withCrudOperations(readFileSync(OPENAPI_PATH, 'utf8'), 100));
  largeTools = join(scratch, 'tool-definitions.json');
  writeFileSync(largeTools, JSON.stringify(Object.values(toolDefinitions(loadOpenApiDocument(largeDocument)))));
});
afterAll(async () => {
  for (const client of sessions) await client.close();
  await sandbox?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});
beforeEach(async () => {
  await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST', body: '{}' });
  handedOut.length = 0;
});
afterEach(() => expect(handedOut.join('')).not.toContain(R.tokens.owner));

/** A session with the bin (or, with `tools`, the bin's command line over those tool definitions). */
async function connect(args: string[], tools?: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: tools ? [SERVE, tools, ...args] : [BIN, ...args],
    env: {
      PATH: process.env['PATH'] ?? '',
      BROWSER_CLOUD_BASE_URL: sandbox.url,
      BROWSER_CLOUD_API_KEY: R.tokens.owner,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'tool-choice', version: '0.0.0' });
  await client.connect(transport);
  sessions.push(client);
  const listed = await client.listTools();
  handedOut.push(JSON.stringify(listed));
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    handedOut.push(JSON.stringify(result));
    return result;
  };
  return { client, tools: listed.tools, bytes: Buffer.byteLength(JSON.stringify(listed)), stderr: () => stderr, call };
}

const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
const names = (tools: ReadonlyArray<{ name: string }>) => tools.map((tool) => tool.name);

describe('--tools=dynamic, against the sandbox', () => {
  it('lists three meta-tools that every host accepts, whatever the document holds', async () => {
    const { tools, stderr } = await connect(['--tools=dynamic']);
    expect(names(tools)).toEqual(META);
    expect(tools.length).toBeLessThanOrEqual(5);
    for (const tool of tools) expect(hostRuleViolations(tool), tool.name).toEqual([]);
    // Chosen, not imposed: nothing is said on stderr.
    expect(stderr()).toBe('');
  });

  it('list_api_endpoints lists every operation, and narrows by search, resource and operation', async () => {
    const { call } = await connect(['--tools=dynamic']);
    const endpoints = async (args: Record<string, unknown>) => {
      const result = await call('list_api_endpoints', args);
      expect(result.isError, text(result)).toBeFalsy();
      return (result.structuredContent as { endpoints: Array<Record<string, string>> }).endpoints;
    };
    expect(await endpoints({})).toEqual(
      DEFINITIONS.map((tool) => ({
        endpoint: tool.name,
        resource: resourceOf(tool),
        operation: operationKindOf(tool),
        summary: tool.title,
      })),
    );
    const [first] = DEFINITIONS;
    // Any case, in the name (or the resource, the summary, the description).
    const searched = await endpoints({ search: first!.name.toUpperCase() });
    expect(searched.map((e) => e['endpoint'])).toContain(first!.name);
    const holds = (tool: ToolDefinition, term: string) =>
      [tool.name, resourceOf(tool), tool.title, tool.description].some((t) => t.toLowerCase().includes(term));
    expect(searched.map((e) => e['endpoint'])).toEqual(
      DEFINITIONS.filter((tool) => holds(tool, first!.name)).map((tool) => tool.name),
    );
    expect((await endpoints({ resource: `${resourceOf(first!)}*` })).map((e) => e['resource'])).toContain(
      resourceOf(first!),
    );
    for (const operation of ['read', 'write']) {
      const found = await endpoints({ operation });
      expect(found.map((e) => e['endpoint'])).toEqual(
        DEFINITIONS.filter((tool) => operationKindOf(tool) === operation).map((tool) => tool.name),
      );
    }
    expect(await endpoints({ search: 'zz-not-in-any-endpoint' })).toEqual([]);
    const bad = await call('list_api_endpoints', { operation: 'delete' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^Invalid arguments, nothing was sent: operation: must be one of/);
  });

  it('get_api_endpoint_schema gives the endpoint as tools/list would, its input schema whole', async () => {
    const { call } = await connect(['--tools=dynamic']);
    for (const tool of DEFINITIONS) {
      const result = await call('get_api_endpoint_schema', { endpoint: tool.name });
      expect(result.structuredContent).toMatchObject({
        endpoint: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
      });
    }
    const unknown = await call('get_api_endpoint_schema', { endpoint: 'zz_not_in_document' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe(
      `Unknown endpoint "zz_not_in_document": list_api_endpoints lists the ${DEFINITIONS.length} endpoints of this server.`,
    );
    const missing = await call('get_api_endpoint_schema', {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('Invalid arguments, nothing was sent: endpoint: is required');
  });

  it('invoke_api_endpoint calls the endpoint on the service, its arguments checked as the tool checks them', async () => {
    const { call } = await connect(['--tools=dynamic']);
    const renamed = await call('invoke_api_endpoint', {
      endpoint: 'rename_profile',
      args: { id_or_name: R.profiles.defaultProject.id, name: 'dynamic-rename' },
    });
    expect(renamed.isError, text(renamed)).toBeFalsy();
    expect(renamed.structuredContent).toMatchObject({ id: R.profiles.defaultProject.id, name: 'dynamic-rename' });
    // The sandbox holds the new name: the call reached it.
    const again = await call('invoke_api_endpoint', {
      endpoint: 'rename_profile',
      args: { id_or_name: 'dynamic-rename', name: 'dynamic-rename-2' },
    });
    expect(again.structuredContent).toMatchObject({ id: R.profiles.defaultProject.id, name: 'dynamic-rename-2' });

    // Refused before sending: a rule of the document, an unknown argument, no args at all.
    const long = await call('invoke_api_endpoint', {
      endpoint: 'rename_profile',
      args: { id_or_name: R.profiles.defaultProject.id, name: 'x'.repeat(256) },
    });
    expect(long.isError).toBe(true);
    expect(text(long)).toMatch(/^Invalid arguments, nothing was sent: body\.name: /);
    const unknown = await call('invoke_api_endpoint', {
      endpoint: 'rename_profile',
      args: { id_or_name: R.profiles.defaultProject.id, name: 'n', zz_not_in_document: 1 },
    });
    expect(text(unknown)).toBe(
      'Invalid arguments, nothing was sent: zz_not_in_document: is not an argument of rename_profile',
    );
    const noArgs = await call('invoke_api_endpoint', { endpoint: 'rename_profile' });
    expect(text(noArgs)).toBe('Invalid arguments, nothing was sent: args: is required');
    // And answers as the tool does: a 409 with the document's hint.
    const taken = await call('invoke_api_endpoint', {
      endpoint: 'rename_profile',
      args: { id_or_name: R.profiles.defaultProject.id, name: R.profiles.unscoped.name },
    });
    expect(taken.isError).toBe(true);
    expect(text(taken)).toContain(TOOL_DEFINITIONS.rename_profile.conflictHint);
  });

  it('reaches only the operations the other options select', async () => {
    const { call } = await connect(['--tools=dynamic', '--resource=profiles']);
    const listed = await call('list_api_endpoints', {});
    const endpoints = (listed.structuredContent as { endpoints: Array<{ resource: string }> }).endpoints;
    expect(endpoints.length).toBeGreaterThan(0);
    expect(endpoints.every((endpoint) => endpoint.resource === 'profiles')).toBe(true);
    const outside = DEFINITIONS.find((tool) => resourceOf(tool) !== 'profiles')!;
    const refused = await call('invoke_api_endpoint', { endpoint: outside.name, args: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(new RegExp(`^Unknown endpoint "${outside.name}"`));
  });
});

describe('--resource, --operation and --tool choose the tools listed', () => {
  it('lists only the chosen tools, and calls them', async () => {
    const profiles = await connect(['--resource=profiles']);
    expect(names(profiles.tools)).toEqual(names(DEFINITIONS.filter((tool) => resourceOf(tool) === 'profiles')));
    const renamed = await profiles.call('rename_profile', { id_or_name: R.profiles.defaultProject.id, name: 'chosen' });
    expect(renamed.structuredContent).toMatchObject({ name: 'chosen' });
    const reads = await connect(['--operation=read']);
    expect(names(reads.tools)).toEqual(names(DEFINITIONS.filter((tool) => operationKindOf(tool) === 'read')));
    const [first, second] = DEFINITIONS;
    const named = await connect([`--tool=${first!.name}`, '--tool', second!.name]);
    expect(names(named.tools)).toEqual([first!.name, second!.name]);
    // A tool left out is unknown, as any name the server does not serve.
    await expect(profiles.client.callTool({ name: first!.name, arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe('a large API (the document with 100 CRUD operations added)', () => {
  it('starts in dynamic mode without an option, says so on stderr, and reaches every operation', async () => {
    const { tools, stderr, call, bytes } = await connect([], largeTools);
    expect(names(tools)).toEqual(META);
    expect(stderr()).toMatch(
      new RegExp(`^browser-cloud-mcp: dynamic mode: (\\d+) tools are more than the ${MAX_LISTED_TOOLS} hosts`),
    );
    const count = Number(/(\d+) tools are more/.exec(stderr())![1]);
    expect(count).toBe(DEFINITIONS.length + 100);
    const listed = await call('list_api_endpoints', {});
    expect((listed.structuredContent as { endpoints: unknown[] }).endpoints).toHaveLength(count);
    const widgets = await call('list_api_endpoints', { resource: 'widgets', operation: 'read' });
    expect(
      (widgets.structuredContent as { endpoints: Array<{ endpoint: string }> }).endpoints.map((e) => e.endpoint),
    ).toEqual(['list_widgets', 'get_widget']);
    const schema = await call('get_api_endpoint_schema', { endpoint: 'get_widget' });
    expect(schema.structuredContent).toMatchObject({
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    });
    // The call goes as far as the client, which is the repository's and has no widgets.
    const invoked = await call('invoke_api_endpoint', { endpoint: 'get_widget', args: { id: 'wid_1' } });
    expect(text(invoked)).toBe(
      'BrowserCloudError: This client has no method widgets.get: it is older than the document of this call',
    );
    const all = await connect(['--tools=all'], largeTools);
    expect(all.tools).toHaveLength(count);
    expect(all.stderr()).toBe('');
    for (const tool of all.tools) expect(hostRuleViolations(tool), tool.name).toEqual([]);
    console.table({ dynamic: { tools: tools.length, bytes }, all: { tools: all.tools.length, bytes: all.bytes } });
  });

  it('lists the tools of a choice of 40 or fewer, with no word on stderr', async () => {
    const { tools, stderr } = await connect(['--resource=widgets', '--resource=folders'], largeTools);
    expect(tools).toHaveLength(10);
    expect(stderr()).toBe('');
  });
});
