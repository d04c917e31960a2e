import { type BrowserCloudClient, ConflictError } from '@browser-cloud/client';
import {
  allowingUnknownProperties,
  HAND_WRITTEN_NAMES,
  inlineRefs,
  loadOpenApiDocument,
  OPENAPI_PATH,
  operations,
} from '@browser-cloud/openapi-document';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpServer } from '../src/server.js';
import type { ToolDefinition } from '../src/tool-definition.js';
import { effectiveHints } from '../test/effective-hints.js';
import { compact, hostRuleViolations, TAIL, toolDefinitions } from './tool-definitions.mjs';
import PROFILE_RETRIEVE_AND_DELETE from '../../openapi-document/test/profile-retrieve-and-delete.json' with {
  type: 'json',
};

/**
 * A document of the test's own: the repository's, plus the two operations of the service that
 * its official SDK has as `profiles.retrieve` and `profiles.delete`. With only operations added
 * to a document, the generator makes tools that a host accepts and that call the client by the
 * calling convention.
 */
const document = loadOpenApiDocument(OPENAPI_PATH);
Object.assign(document.paths!['/profiles/{id_or_name}']!, PROFILE_RETRIEVE_AND_DELETE);
const tools = toolDefinitions(document);
const byOperation = (operationId: string) =>
  Object.values(tools).find((tool) => tool.operationId === operationId) as ToolDefinition;

describe('tools generated from a document with operations added', () => {
  it('make a tool per operation, the new ones among them', () => {
    expect(Object.values(tools).map((tool) => tool.operationId)).toEqual(
      [...operations(document)].map((operation) => operation.operationId),
    );
    expect(byOperation('getProfile').name).toBe('get_profile');
    expect(byOperation('deleteProfile').name).toBe('delete_profile');
  });

  it('a GET answering a Profile: read-only, idempotent, its input the path, its output the tolerant Profile', () => {
    expect(byOperation('getProfile')).toMatchObject({
      title: 'Retrieve a profile',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: { id_or_name: { type: 'string', minLength: 1 } },
        required: ['id_or_name'],
      },
      answer: 'object',
      outputSchema: compact(allowingUnknownProperties(inlineRefs(document, { $ref: '#/components/schemas/Profile' }))),
      conflictHint: '',
      call: { sdk: { resource: ['profiles'], verb: 'get' }, path: ['id_or_name'], body: 'none', query: 'none' },
    });
  });

  it('a DELETE answering 204: destructive, idempotent, an empty result, and the 409 hint from its description', () => {
    expect(effectiveHints(byOperation('deleteProfile').annotations)).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    // Only the hint that differs from MCP's defaults is listed.
    expect(byOperation('deleteProfile').annotations).toEqual({ idempotentHint: true });
    expect(byOperation('deleteProfile')).toMatchObject({
      answer: 'none',
      outputSchema: { type: 'object', properties: {}, additionalProperties: false },
      conflictHint: expect.stringMatching(/^A browser session uses the profile\. /),
    });
  });

  it('every one breaks none of the hosts’ rules', () => {
    for (const tool of Object.values(tools)) expect(hostRuleViolations(tool), tool.name).toEqual([]);
  });
});

describe('compact: what a tool’s schema leaves out of the document’s', () => {
  it('drops the titles of schemas, an empty required and extensions, at any depth, and keeps everything else', () => {
    const schema = {
      type: 'object',
      title: 'Widget',
      required: [],
      'x-default-enabled': true,
      properties: {
        title: { type: 'string', title: 'Title', description: 'A property named title stays.' },
        'x-trace': { type: 'boolean', 'x-unique': false },
        kind: { enum: [{ title: 'a value, not a schema' }], default: { title: 'kept' } },
        parts: { type: 'array', items: { type: 'object', title: 'Part', required: ['id'], properties: {} } },
      },
      $defs: { title: { title: 'Dropped' } },
    };
    expect(compact(schema)).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', description: 'A property named title stays.' },
        'x-trace': { type: 'boolean' },
        kind: { enum: [{ title: 'a value, not a schema' }], default: { title: 'kept' } },
        parts: { type: 'array', items: { type: 'object', required: ['id'], properties: {} } },
      },
      $defs: { title: {} },
    });
  });

  it('leaves no schema title and no annotation equal to its MCP default in the repository’s tools', () => {
    const titles = JSON.stringify(Object.values(tools).map((t) => [t.inputSchema, t.outputSchema]));
    expect(titles).not.toMatch(/"title":"(ProxyRef|Profile|LoginResponse|BrowserTelemetry)/);
    for (const { annotations = {} } of Object.values(tools)) {
      expect(annotations).not.toHaveProperty('title');
      expect(annotations).not.toHaveProperty('openWorldHint');
      if (annotations.readOnlyHint) expect(annotations).toEqual({ readOnlyHint: true });
      else {
        expect(annotations).not.toHaveProperty('readOnlyHint');
        expect(annotations.destructiveHint).not.toBe(true);
        expect(annotations.idempotentHint).not.toBe(false);
      }
    }
  });
});

describe('the new tools, served', () => {
  const PROFILE = { id: 'prof_1', created_at: '2026-11-22T19:58:03Z', name: 'checkout', zz_not_in_document: 1 };
  const client = {
    profiles: {
      get: vi.fn(async () => PROFILE),
      delete: vi.fn(async (idOrName: string) => {
        if (idOrName === 'in-use') {
          throw new ConflictError({
            status: 409,
            headers: new Headers(),
            body: { code: 'conflict', message: 'in use' },
          });
        }
      }),
    },
  };
  let mcp: Client;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await mcp.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer({ client: client as unknown as BrowserCloudClient, tools: Object.values(tools) });
    await server.connect(serverSide);
    mcp = new Client({ name: 'new-operations', version: '0.0.0' });
    await mcp.connect(clientSide);
    // The SDK's client checks structured results against the output schemas it has listed.
    const listed = (await mcp.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toEqual(Object.keys(tools));
    for (const tool of listed) expect(hostRuleViolations(tool), tool.name).toEqual([]);
  });
  afterAll(() => mcp?.close());

  it('get_profile calls client.profiles.get(idOrName, { signal }) and hands on the profile as it came', async () => {
    const result = await call('get_profile', { id_or_name: 'prof_1' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(PROFILE);
    expect(client.profiles.get).toHaveBeenCalledWith('prof_1', { signal: expect.any(AbortSignal) });
  });

  it('delete_profile calls client.profiles.delete(idOrName, { signal }); no answer is an empty result', async () => {
    const result = await call('delete_profile', { id_or_name: 'prof_1' });
    expect(result).toMatchObject({ structuredContent: {} });
    expect(result.isError).toBeFalsy();
    expect(client.profiles.delete).toHaveBeenCalledWith('prof_1', { signal: expect.any(AbortSignal) });
    const conflict = await call('delete_profile', { id_or_name: 'in-use' });
    expect(conflict.isError).toBe(true);
    expect(conflict.content).toEqual([
      { type: 'text', text: `The API answered 409 conflict: in use\n${byOperation('deleteProfile').conflictHint}` },
    ]);
  });

  it('an argument the document lacks is refused by name, and nothing is called', async () => {
    const calls = client.profiles.get.mock.calls.length;
    const result = await call('get_profile', { id_or_name: 'prof_1', zz_not_in_document: true });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'Invalid arguments, nothing was sent: zz_not_in_document: is not an argument of get_profile',
      },
    ]);
    expect(client.profiles.get.mock.calls.length).toBe(calls);
  });
});

describe('a client older than the document', () => {
  it('makes a call of a tool it has no method for a tool error naming the method', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer({ client: {} as BrowserCloudClient, tools: [byOperation('getProfile')] }).connect(serverSide);
    const mcp = new Client({ name: 'old-client', version: '0.0.0' });
    await mcp.connect(clientSide);
    const result = (await mcp.callTool({ name: 'get_profile', arguments: { id_or_name: 'prof_1' } })) as CallToolResult;
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'BrowserCloudError: This client has no method profiles.get: it is older than the document of this call',
      },
    ]);
    await mcp.close();
  });
});

describe("the tail tool's own arguments", () => {
  it("are those the operations model keeps free of a stream's inputs (HAND_WRITTEN_NAMES.mcpTail)", () => {
    expect(Object.keys(TAIL.arguments)).toEqual(HAND_WRITTEN_NAMES.mcpTail.arguments);
    expect(TAIL.eventProperties).toEqual(HAND_WRITTEN_NAMES.mcpTail.eventProperties);
  });
});
