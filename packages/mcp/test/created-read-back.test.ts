// A resource added to the document alone (profiles' create, paged list, read and delete, in a
// scratch copy): what is created through the client generated from that copy, and through its MCP
// tools, reads back through both from the sandbox serving it; a taken name is the documented 409.
// Every name (method, tool, argument, field, paging parameter) comes from the operations and
// resource models of the copy.
import { type Operation, operationSignature } from '@browser-cloud/openapi-document';
import { type RunningSandbox, startSandbox } from '@browser-cloud/sandbox';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { profilesResource } from '../../../openapi/test-support/profiles-crud.js';
import { toolDefinitions } from '../scripts/tool-definitions.mjs';
import type { ToolDefinition } from '../src/tool-definition.js';
import { connectedMcp } from './connected-mcp.js';

// The client generated from the scratch copy, which the MCP server imports too, as a build from
// that copy would give it: the server tells a 409 from other failures by the client's classes.
const scratch = await vi.hoisted(async () =>
  (await import('../../client/src/test-support/profiles-crud-client.js')).profilesCrudClient(),
);
vi.mock('@browser-cloud/client', () => scratch.module);

const { document } = scratch;
const { resource: profiles, crud, paging, itemParameter, itemsOf } = profilesResource(document);
const { create, list: listing, read, delete: remove } = crud;

type Method = (...args: unknown[]) => Promise<unknown>;
let sandbox: RunningSandbox;
let client: object;
let mcp: Client;
const tools = Object.values(toolDefinitions(document)) as ToolDefinition[];
const toolOf = (operation: Operation) => tools.find((tool) => tool.name === operation.names.tool)!;

/** The client's method of `operation`: `client[sdk.resource…][sdk.verb]`. */
function method(operation: Operation): Method {
  const target = operation.sdk.resource.reduce<any>((node, name) => node[name], client);
  return target[operation.sdk.verb].bind(target);
}

/** The client's call of `operation` with named arguments, as its calling convention says. */
const callClient = (operation: Operation, args: { path?: object; query?: object; body?: object }) =>
  scratch.module.callOperation(
    client,
    operationSignature(document, operation).call,
    { path: {}, query: {}, body: {}, ...args } as never,
    {},
  ) as Promise<unknown>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, document, quiet: true });
  client = scratch.module.createClient({ baseUrl: sandbox.url, token: sandbox.fixture.tokens.owner });
  mcp = await connectedMcp({ client: client as never, tools });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
  scratch.remove();
});

describe('a profile created through the client', () => {
  it('is listed (one per page, at its place), read by id and by name, refused again by name (409), and gone once deleted', async () => {
    const name = 'read-back-client';
    const created = (await callClient(create, { body: { [profiles.nameField!]: name } })) as Record<string, unknown>;
    const id = created[profiles.idField] as string;
    expect(id).toMatch(new RegExp(`^${profiles.idPrefix}`));
    expect(created[profiles.nameField!]).toBe(name);

    const all = itemsOf(await callClient(listing, { query: { [paging.limit!]: 100 } }));
    const at = all.findIndex((item) => item[profiles.idField] === id);
    expect(at).toBe(all.length - 1);
    const page = itemsOf(await callClient(listing, { query: { [paging.limit!]: 1, [paging.offset!]: at } }));
    expect(page).toEqual([created]);
    if (at > 0) {
      const before = itemsOf(await callClient(listing, { query: { [paging.limit!]: 1, [paging.offset!]: at - 1 } }));
      expect(before).toEqual([all[at - 1]]);
    }

    // The generated method itself, by id and by name.
    expect(await method(read)(id)).toEqual(created);
    expect(await method(read)(name)).toEqual(created);

    const again = await method(create)({ [profiles.nameField!]: name }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(scratch.module.ConflictError);
    expect(again).toMatchObject({ status: 409, code: 'conflict' });
    expect(itemsOf(await callClient(listing, { query: { [paging.limit!]: 100 } }))).toEqual(all);

    await method(remove)(id);
    const gone = await method(read)(id).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(scratch.module.NotFoundError);
    expect(gone).toMatchObject({ status: 404 });
    expect(
      itemsOf(await callClient(listing, { query: { [paging.limit!]: 100 } })).map((item) => item[profiles.idField]),
    ).not.toContain(id);
  });
});

describe('a profile created through the MCP tools', () => {
  /** The tool's structured answer: an object answer as it is, any other under `result`. */
  const answerOf = (tool: ToolDefinition, structured: unknown) =>
    tool.answer === 'value' ? (structured as { result: unknown }).result : structured;

  it('reads back through the list and get tools; a taken name is a tool error naming the 409', async () => {
    const name = 'read-back-mcp';
    const made = await mcp.callTool({ name: create.names.tool, arguments: { [profiles.nameField!]: name } });
    expect(made.isError).toBeFalsy();
    const created = answerOf(toolOf(create), made.structuredContent) as Record<string, unknown>;
    const id = created[profiles.idField] as string;
    expect(id).toMatch(new RegExp(`^${profiles.idPrefix}`));

    const everything = await mcp.callTool({ name: listing.names.tool, arguments: { [paging.limit!]: 100 } });
    const all = itemsOf(answerOf(toolOf(listing), everything.structuredContent));
    const at = all.findIndex((item) => item[profiles.idField] === id);
    expect(at).toBe(all.length - 1);
    const page = await mcp.callTool({
      name: listing.names.tool,
      arguments: { [paging.limit!]: 1, [paging.offset!]: at },
    });
    expect(itemsOf(answerOf(toolOf(listing), page.structuredContent))).toEqual([created]);

    for (const value of [id, name]) {
      const got = await mcp.callTool({ name: read.names.tool, arguments: { [itemParameter]: value } });
      expect(got.isError).toBeFalsy();
      expect(answerOf(toolOf(read), got.structuredContent)).toEqual(created);
    }
    // What the tools created, the client reads too.
    expect(await method(read)(id)).toEqual(created);

    const again = await mcp.callTool({ name: create.names.tool, arguments: { [profiles.nameField!]: name } });
    expect(again.isError).toBe(true);
    const text = (again.content as { text: string }[])[0]!.text;
    expect(text).toContain(`The API answered 409 conflict: a ${profiles.noun} named "${name}" already exists`);
    expect(toolOf(create).conflictHint).not.toBe('');
    expect(text).toContain(toolOf(create).conflictHint);
    expect(text).toMatch(/Request ID: req_/);

    const deleted = await mcp.callTool({ name: remove.names.tool, arguments: { [itemParameter]: id } });
    expect(deleted.isError).toBeFalsy();
    const gone = await mcp.callTool({ name: read.names.tool, arguments: { [itemParameter]: id } });
    expect(gone.isError).toBe(true);
    expect((gone.content as { text: string }[])[0]!.text).toMatch(/^The API answered 404 /);
  });
});
