// A resource added to the document alone (profiles' create, paged list, read and delete, in a
// scratch copy): what is created through the client generated from that copy, and through its MCP
// tools, reads back through both from the sandbox serving it; a taken name is the documented 409.
// The list answers an array in one copy, an object holding it in the other. Every name (method,
// tool, argument, field, paging parameter) comes from the operations and resource models of the copy.
import { type Operation, operationSignature } from '@browser-cloud/openapi-document';
import { type RunningSandbox, startSandbox } from '@browser-cloud/sandbox';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ListShape, profilesResource } from '../../../openapi/test-support/profiles-crud.js';
import { profilesCrudClient } from '../../client/src/test-support/profiles-crud-client.js';
import { toolDefinitions } from '../scripts/tool-definitions.mjs';
import type { ToolDefinition } from '../src/tool-definition.js';

type Method = (...args: unknown[]) => Promise<unknown>;
type Item = Record<string, unknown>;

describe.each<ListShape>(['array', 'envelope'])('a profile created, its list answering an %s', (shape) => {
  let scratch: Awaited<ReturnType<typeof profilesCrudClient>>;
  let model: ReturnType<typeof profilesResource>;
  let sandbox: RunningSandbox;
  let client: object;
  let mcp: Client;
  let tools: ToolDefinition[];

  beforeAll(async () => {
    scratch = await profilesCrudClient(shape);
    model = profilesResource(scratch.document);
    // The MCP server imports the client generated from the copy, as a build from that copy would
    // give it: the server tells a 409 from other failures by the client's classes.
    vi.resetModules();
    vi.doMock('@browser-cloud/client', () => scratch.module);
    const { connectedMcp } = await import('./connected-mcp.js');
    sandbox = await startSandbox({ port: 0, document: scratch.document, quiet: true });
    client = scratch.module.createClient({ baseUrl: sandbox.url, token: sandbox.fixture.tokens.owner });
    tools = Object.values(toolDefinitions(scratch.document)) as ToolDefinition[];
    mcp = await connectedMcp({ client: client as never, tools });
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
    await sandbox?.close();
    scratch?.remove();
    vi.doUnmock('@browser-cloud/client');
    vi.resetModules();
  });

  const toolOf = (operation: Operation) => tools.find((tool) => tool.name === operation.names.tool)!;
  /** The client's method of `operation`: `client[sdk.resource…][sdk.verb]`. */
  function method(operation: Operation): Method {
    const target = operation.sdk.resource.reduce<any>((node, name) => node[name], client);
    return target[operation.sdk.verb].bind(target);
  }
  /** A page of the list through the client, called as its calling convention says. */
  const listThroughClient = (query: Record<string, number>) =>
    scratch.module.callOperation(
      client,
      operationSignature(scratch.document, model.crud.list).call,
      { path: {}, query, body: {} },
      {},
    ) as Promise<unknown>;
  const limit = () => model.paging.limit!;
  const offset = () => model.paging.offset!;

  it('through the client: listed (one per page, at its place), read by id and by name, 409 again by name, gone once deleted', async () => {
    const { resource, crud, itemsOf } = model;
    const name = `read-back-client-${shape}`;
    const created = (await method(crud.create)({ [resource.nameField!]: name })) as Item;
    const id = created[resource.idField] as string;
    expect(id).toMatch(new RegExp(`^${resource.idPrefix}`));
    expect(created[resource.nameField!]).toBe(name);

    const everything = await listThroughClient({ [limit()]: 100 });
    const all = itemsOf(everything);
    const at = all.findIndex((item) => item[resource.idField] === id);
    expect(at).toBe(all.length - 1);
    const page = await listThroughClient({ [limit()]: 1, [offset()]: at });
    expect(itemsOf(page)).toEqual([created]);
    const before = await listThroughClient({ [limit()]: 1, [offset()]: at - 1 });
    expect(itemsOf(before)).toEqual([all[at - 1]]);
    if (shape === 'envelope') {
      expect(page).toMatchObject({ has_more: false, total: all.length });
      expect(before).toMatchObject({ has_more: true, total: all.length });
    }

    expect(await method(crud.read)(id)).toEqual(created);
    expect(await method(crud.read)(name)).toEqual(created);

    const again = await method(crud.create)({ [resource.nameField!]: name }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(scratch.module.ConflictError);
    expect(again).toMatchObject({ status: 409, code: 'conflict' });
    expect(itemsOf(await listThroughClient({ [limit()]: 100 }))).toEqual(all);

    await method(crud.delete)(id);
    const gone = await method(crud.read)(id).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(scratch.module.NotFoundError);
    expect(gone).toMatchObject({ status: 404 });
    expect(itemsOf(await listThroughClient({ [limit()]: 100 })).map((item) => item[resource.idField])).not.toContain(
      id,
    );
  });

  it('through the MCP tools: read back by the list and get tools (and the client); a taken name is a tool error naming the 409', async () => {
    const { resource, crud, itemParameter, itemsOf } = model;
    /** The tool's structured answer: an object answer as it is, any other under `result`. */
    const answerOf = (operation: Operation, structured: unknown) =>
      toolOf(operation).answer === 'value' ? (structured as { result: unknown }).result : structured;
    const call = async (operation: Operation, args: Record<string, unknown>) => {
      const result = (await mcp.callTool({ name: operation.names.tool, arguments: args })) as CallToolResult;
      return { ...result, answer: answerOf(operation, result.structuredContent) };
    };
    const name = `read-back-mcp-${shape}`;
    const made = await call(crud.create, { [resource.nameField!]: name });
    expect(made.isError).toBeFalsy();
    const created = made.answer as Item;
    const id = created[resource.idField] as string;
    expect(id).toMatch(new RegExp(`^${resource.idPrefix}`));

    const all = itemsOf((await call(crud.list, { [limit()]: 100 })).answer);
    const at = all.findIndex((item) => item[resource.idField] === id);
    expect(at).toBe(all.length - 1);
    const page = await call(crud.list, { [limit()]: 1, [offset()]: at });
    expect(itemsOf(page.answer)).toEqual([created]);

    for (const value of [id, name]) {
      const got = await call(crud.read, { [itemParameter]: value });
      expect(got.isError).toBeFalsy();
      expect(got.answer).toEqual(created);
    }
    // What the tools created, the client reads too.
    expect(await method(crud.read)(id)).toEqual(created);

    const again = await call(crud.create, { [resource.nameField!]: name });
    expect(again.isError).toBe(true);
    const text = (again.content[0] as { text: string }).text;
    expect(text).toContain(`The API answered 409 conflict: a ${resource.noun} named "${name}" already exists`);
    expect(toolOf(crud.create).conflictHint).not.toBe('');
    expect(text).toContain(toolOf(crud.create).conflictHint);
    expect(text).toMatch(/Request ID: req_/);

    expect((await call(crud.delete, { [itemParameter]: id })).isError).toBeFalsy();
    const gone = await call(crud.read, { [itemParameter]: id });
    expect(gone.isError).toBe(true);
    expect((gone.content[0] as { text: string }).text).toMatch(/^The API answered 404 /);
  });
});
