// Operations whose inputs and answers are not strings, added to a scratch copy of the document,
// called through the client generated from it and through its MCP tools, against the sandbox
// serving that document: the bytes that reached the server, and the typed refusals before sending.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOpenApiDocument, OPENAPI_PATH, type OperationObject } from '@browser-cloud/openapi-document';
import { type RunningSandbox, startSandbox } from '@browser-cloud/sandbox';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchClient } from '../../client/src/test-support/scratch-client.js';
import { toolDefinitions } from '../scripts/tool-definitions.mjs';
import type { ToolDefinition } from '../src/tool-definition.js';
import { connectedMcp } from './connected-mcp.js';

const document = structuredClone(loadOpenApiDocument(OPENAPI_PATH));
const errors = { '400': { $ref: '#/components/responses/BadRequest' } };
const widgets = { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } };
const withExample = (schema: Record<string, unknown>, example: unknown) => ({
  description: 'ok',
  content: { 'application/json': { schema, example } },
});
Object.assign(document.paths!, {
  '/widgets/{n}': {
    get: {
      operationId: 'getWidgets',
      summary: 'Get widgets',
      tags: ['Browsers'],
      parameters: [
        { name: 'n', in: 'path', required: true, schema: { type: 'integer', minimum: 1 }, example: 7 },
        { name: 'colors', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] } } },
        { name: 'tags', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } },
        { name: 'all', in: 'query', schema: { type: 'boolean' } },
        { name: 'X-Depth', in: 'header', schema: { type: 'integer' } },
        // Values typed without a `type`: by their members, their enum's values, their const.
        { name: 'depth', in: 'query', schema: { allOf: [{ type: 'integer' }, { minimum: 1 }] } },
        { name: 'since', in: 'query', schema: { oneOf: [{ type: 'boolean' }, { type: 'integer', minimum: 0 }] } },
        { name: 'level', in: 'query', schema: { enum: [1, 2, null] } },
        { name: 'strict', in: 'query', schema: { const: true } },
        { name: 'page', in: 'query', schema: { type: ['integer', 'null'] } },
      ],
      responses: { '200': withExample(widgets, [{ n: 1 }]), ...errors },
    } satisfies OperationObject,
  },
  '/zz-styles': {
    get: {
      operationId: 'listZzStyles',
      summary: 'List by every style',
      tags: ['Browsers'],
      parameters: [
        {
          name: 'filter',
          in: 'query',
          style: 'deepObject',
          schema: {
            type: 'object',
            additionalProperties: false,
            properties: { a: { type: 'string' }, b: { type: 'integer' } },
          },
        },
        {
          name: 'ids',
          in: 'query',
          style: 'spaceDelimited',
          explode: false,
          schema: { type: 'array', items: { type: 'string' } },
        },
        {
          name: 'ranks',
          in: 'query',
          style: 'pipeDelimited',
          explode: false,
          schema: { type: 'array', items: { type: 'integer' } },
        },
        { name: 'X-Tags', in: 'header', schema: { type: 'array', items: { type: 'string' } } },
      ],
      responses: { '204': { description: 'none' }, ...errors },
    } satisfies OperationObject,
  },
  '/zz-notes': {
    post: {
      operationId: 'createZzNote',
      summary: 'Create a note',
      tags: ['Browsers'],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            // A body composed as OpenAPI documents extend a schema: a base, and its own properties.
            schema: {
              allOf: [
                { type: 'object', properties: { title: { type: 'string', minLength: 1 } }, required: ['title'] },
                { type: 'object', properties: { pinned: { type: 'boolean' } } },
              ],
              unevaluatedProperties: false,
            },
          },
        },
      },
      responses: { '200': withExample({ type: 'object' }, {}), ...errors },
    } satisfies OperationObject,
  },
  '/zz-gadgets/{id}/viewport': {
    put: {
      operationId: 'setViewport',
      'x-sdk-verb': 'set',
      summary: 'Set the viewport',
      tags: ['Browsers'],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'br_1' }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              required: ['width', 'height'],
              properties: {
                width: { type: 'integer' },
                height: { type: 'integer' },
                frame: {
                  type: 'object',
                  additionalProperties: false,
                  properties: { inset: { type: 'object', properties: { top: { type: 'number' } } } },
                },
              },
            },
          },
        },
      },
      responses: { '200': withExample({ type: 'object' }, {}), ...errors },
    } satisfies OperationObject,
  },
});

type Method = (...args: unknown[]) => Promise<unknown>;
let folder: string;
let sandbox: RunningSandbox;
let client: {
  widgets: { get: Method };
  zzGadgets: { viewport: { set: Method } };
  zzStyles: { list: Method };
  zzNotes: { create: Method };
};
let mcp: Client;
/** What reached the server, by request: method, URL after the host, the headers asked about, the body's bytes. */
const sent: { method: string; url: string; depth: string | null; tags: string | null; body: string }[] = [];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'schema-types-'));
  sandbox = await startSandbox({ port: 0, quiet: true, document });
  const built = await scratchClient<{ createClient(options: object): typeof client }>(document, folder);
  const recording = async (request: Request) => {
    const body = request.body ? await request.clone().text() : '';
    const url = request.url.slice(sandbox.url.length);
    sent.push({
      method: request.method,
      url,
      depth: request.headers.get('x-depth'),
      tags: request.headers.get('x-tags'),
      body,
    });
    return fetch(request);
  };
  client = built.client.createClient({ baseUrl: sandbox.url, token: sandbox.fixture.tokens.owner, fetch: recording });
  const tools = Object.values(toolDefinitions(document)) as ToolDefinition[];
  mcp = await connectedMcp({ client: client as never, tools });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('values that are not strings, end to end', () => {
  it('the client writes an integer path value, arrays by their style, a boolean and a header; the sandbox takes them', async () => {
    sent.length = 0;
    const answer = await client.widgets.get(7, {
      query: { colors: ['red', 'blue'], tags: ['a', 'b,c'], all: false },
      header: { 'X-Depth': 2 },
    });
    expect(answer).toEqual([{ n: 1 }]);
    expect(sent).toEqual([
      {
        method: 'GET',
        url: '/widgets/7?colors=red&colors=blue&tags=a,b%2Cc&all=false',
        depth: '2',
        tags: null,
        body: '',
      },
    ]);
  });

  it('the client sends a value typed by oneOf or allOf members, enum values or a const, and the sandbox reads it so', async () => {
    sent.length = 0;
    for (const query of [
      { since: true, level: 2, strict: true, page: 3 },
      { since: 5, level: 1, depth: 4 },
    ]) {
      await expect(client.widgets.get(7, { query })).resolves.toEqual([{ n: 1 }]);
    }
    expect(sent.map(({ url }) => url)).toEqual([
      '/widgets/7?since=true&level=2&strict=true&page=3',
      '/widgets/7?since=5&level=1&depth=4',
    ]);
    const get = (search: string) =>
      fetch(`${sandbox.url}/widgets/7?${search}`, {
        headers: { authorization: `Bearer ${sandbox.fixture.tokens.owner}` },
      });
    for (const refused of ['since=-1', 'since=yes', 'level=3', 'strict=false', 'page=two', 'depth=0', 'depth=one'])
      expect((await get(refused)).status, refused).toBe(400);
    const result = await mcp.callTool({ name: 'get_widgets', arguments: { n: 7, since: 0, level: 2, strict: true } });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(sent.at(-1)?.url).toBe('/widgets/7?since=0&level=2&strict=true');
  });

  it('the client sends integers and a nested object in the body as JSON', async () => {
    sent.length = 0;
    await client.zzGadgets.viewport.set('br_1', { width: 1920, height: 1080, frame: { inset: { top: 0.5 } } });
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      url: '/zz-gadgets/br_1/viewport',
      body: '{"width":1920,"height":1080,"frame":{"inset":{"top":0.5}}}',
    });
  });

  it('refuses a bad integer, an unknown enum value and a mistyped header before sending, naming the field', async () => {
    sent.length = 0;
    await expect(client.widgets.get('seven')).rejects.toMatchObject({ name: 'ValidationError', field: 'path.n' });
    await expect(client.widgets.get(7, { query: { colors: ['green'] } })).rejects.toMatchObject({
      name: 'ValidationError',
      field: 'query.colors[0]',
    });
    await expect(client.widgets.get(7, { header: { 'X-Depth': 'deep' } })).rejects.toMatchObject({
      name: 'ValidationError',
      field: 'header.X-Depth',
    });
    await expect(client.zzGadgets.viewport.set('br_1', { width: '1920', height: 1080 })).rejects.toMatchObject({
      field: 'body.width',
    });
    expect(sent).toEqual([]);
  });

  it('the sandbox refuses what the document refuses, read as the style says', async () => {
    const get = (search: string) =>
      fetch(`${sandbox.url}/widgets/7?${search}`, {
        headers: { authorization: `Bearer ${sandbox.fixture.tokens.owner}` },
      });
    expect((await get('colors=red&colors=blue')).status).toBe(200);
    expect((await get('colors=green')).status).toBe(400);
    expect((await get('all=maybe')).status).toBe(400);
    const integer = await fetch(`${sandbox.url}/widgets/zero`, {
      headers: { authorization: `Bearer ${sandbox.fixture.tokens.owner}` },
    });
    expect(integer.status).toBe(400);
  });

  it('the client writes deepObject, spaceDelimited and pipeDelimited queries and a header array; the sandbox reads them', async () => {
    sent.length = 0;
    const answer = await client.zzStyles.list({
      query: { filter: { a: 'x y', b: 2 }, ids: ['a', 'b'], ranks: [1, 2] },
      header: { 'X-Tags': ['p', 'q'] },
    });
    expect(answer).toBeUndefined();
    expect(sent.map(({ url, tags }) => [url, tags])).toEqual([
      ['/zz-styles?filter[a]=x%20y&filter[b]=2&ids=a%20b&ranks=1|2', 'p,q'],
    ]);
    const get = (search: string) =>
      fetch(`${sandbox.url}/zz-styles?${search}`, {
        headers: { authorization: `Bearer ${sandbox.fixture.tokens.owner}` },
      });
    expect((await get('filter%5Bb%5D=two')).status).toBe(400);
    expect((await get('ranks=1%7Cx')).status).toBe(400);
    expect((await get('filter%5Bc%5D=1')).status).toBe(400);
    const result = await mcp.callTool({
      name: 'list_zz_styles',
      arguments: { filter: { b: 3 }, ids: ['c'], ranks: [4], 'X-Tags': ['r'] },
    });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(sent.slice(1).map(({ url, tags }) => [url, tags])).toEqual([['/zz-styles?filter[b]=3&ids=c&ranks=4', 'r']]);
  });

  it('a body composed by allOf is one set of arguments: the client and MCP send it, and both refuse what it refuses', async () => {
    sent.length = 0;
    await expect(client.zzNotes.create({ title: 'a', pinned: true })).resolves.toEqual({});
    const result = await mcp.callTool({ name: 'create_zz_note', arguments: { title: 'b' } });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(sent.map(({ body }) => body)).toEqual(['{"title":"a","pinned":true}', '{"title":"b"}']);
    await expect(client.zzNotes.create({ pinned: true })).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(client.zzNotes.create({ title: 'c', color: 'red' })).rejects.toMatchObject({
      name: 'ValidationError',
    });
    const missing = await mcp.callTool({ name: 'create_zz_note', arguments: { pinned: false } });
    expect(missing.isError).toBe(true);
    expect(sent).toHaveLength(2);
    const refused = await fetch(`${sandbox.url}/zz-notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.fixture.tokens.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'd', color: 'red' }),
    });
    expect(refused.status).toBe(400);
  });

  it('the MCP tools take typed arguments and send the same bytes', async () => {
    sent.length = 0;
    const result = await mcp.callTool({
      name: 'get_widgets',
      arguments: { n: 7, colors: ['blue'], tags: ['x'], all: true, 'X-Depth': 3 },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ result: [{ n: 1 }] });
    await mcp.callTool({ name: 'set_viewport', arguments: { id: 'br_1', width: 800, height: 600 } });
    expect(sent.map(({ url, depth, body }) => [url, depth, body])).toEqual([
      ['/widgets/7?colors=blue&tags=x&all=true', '3', ''],
      ['/zz-gadgets/br_1/viewport', null, '{"width":800,"height":600}'],
    ]);
    // Refused before sending (the scratch client's ValidationError is not the class the server imports,
    // so the server reports it by class only: the check that names the field is the client's, above).
    const bad = await mcp.callTool({ name: 'set_viewport', arguments: { id: 'br_1', width: 'wide', height: 600 } });
    expect(bad.isError).toBe(true);
    expect(sent).toHaveLength(2);
  });
});
