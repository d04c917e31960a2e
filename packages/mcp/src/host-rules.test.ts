import { createClient } from '@browser-cloud/client';
import { getAt, loadOpenApiDocument, OPENAPI_PATH, operations } from '@browser-cloud/openapi-document';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { hostRuleViolations } from '../scripts/tool-definitions.mjs';
import { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
import { createMcpServer } from './server.js';

// What hosts accept of a tool is written out (with its sources) in `hostRuleViolations` of the
// generator, which refuses to generate a tool that breaks it. The MCP SDK's own client accepts
// any schema, so the rules are checked here on what `tools/list` answers, as a host reads it.

let tools: Tool[];

beforeAll(async () => {
  const client = createClient({
    baseUrl: 'http://127.0.0.1:9',
    token: 'sk_unused',
    fetch: () => Promise.reject(new Error('no request is made here')),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ client }).connect(serverSide);
  const mcp = new Client({ name: 'host-rules', version: '0.0.0' });
  await mcp.connect(clientSide);
  tools = (await mcp.listTools()).tools;
  await mcp.close();
});

describe('every tool of tools/list, against the hosts’ published rules', () => {
  it('lists every generated tool', () => {
    expect(tools.map((tool) => tool.name)).toEqual(Object.keys(TOOL_DEFINITIONS));
  });

  it('breaks no rule', () => {
    for (const tool of tools) expect(hostRuleViolations(tool), tool.name).toEqual([]);
  });

  it('the check catches what hosts refuse (a top-level allOf of if/then, as the document states the query rules)', () => {
    const [tool] = tools;
    const broken = {
      ...tool!,
      name: 'zz not in document',
      inputSchema: { ...tool!.inputSchema, allOf: [{ if: {}, then: { $ref: '#/$defs/x' } }] },
    } as Tool;
    expect(hostRuleViolations(broken)).toEqual([
      'name zz not in document does not match /^[a-zA-Z0-9_-]{1,64}$/',
      'inputSchema: allOf at the top level',
      '#/allOf/0/then: $ref',
    ]);
    expect(
      hostRuleViolations({ ...tool!, inputSchema: { type: 'object', properties: {}, oneOf: [] } } as Tool),
    ).toEqual(['inputSchema: oneOf at the top level']);
    // A `$ref` nested in a property is refused too; a property named like a keyword is no keyword.
    const nested = {
      type: 'object',
      properties: { enum: { type: 'object', properties: { zz: { $ref: '#/x' } } }, const: { enum: [{ $ref: 1 }] } },
    };
    expect(hostRuleViolations({ name: 'zz', inputSchema: nested })).toEqual(['#/properties/enum/properties/zz: $ref']);
    // The Claude API's rule for input property names (`filter[id]` refused, `item.id` taken).
    const properties = { 'filter[id]': { type: 'string' }, 'item.id': { type: 'string' }, имя: { type: 'string' } };
    expect(hostRuleViolations({ name: 'zz', inputSchema: { type: 'object', properties } } as Tool)).toEqual([
      'inputSchema: the property filter[id] does not match /^[a-zA-Z0-9_.-]{1,64}$/',
      'inputSchema: the property имя does not match /^[a-zA-Z0-9_.-]{1,64}$/',
    ]);
  });

  it('states each rule the document puts across the query in the description of the argument it requires', () => {
    const document = loadOpenApiDocument(OPENAPI_PATH);
    const withRules = [...operations(document)].filter((operation) => operation.query?.pointer !== undefined);
    expect(withRules.length).toBeGreaterThan(0);
    for (const operation of withRules) {
      const definition = Object.values(TOOL_DEFINITIONS).find((d) => d.operationId === operation.operationId);
      const tool = tools.find((t) => t.name === definition?.name);
      const query = getAt(document, operation.query!.pointer!) as { allOf?: unknown[] };
      const rules = (query.allOf ?? []) as Array<{
        if: { properties: Record<string, { const: string }> };
        then: { required: string[] };
      }>;
      expect(rules.length).toBeGreaterThan(0);
      const properties = tool!.inputSchema.properties as Record<string, { description?: string }>;
      for (const rule of rules) {
        const [[name, { const: value }]] = Object.entries(rule.if.properties) as [[string, { const: string }]];
        for (const required of rule.then.required) {
          expect(properties[required]?.description).toMatch(new RegExp(`[Rr]equired.*\`${name}\` is \`${value}\``));
        }
      }
    }
  });

  it('lists each tool’s schema size, each well under what a host’s context can spare', () => {
    const sizes = tools.map((tool) => ({
      tool: tool.name,
      inputSchema: JSON.stringify(tool.inputSchema).length,
      outputSchema: JSON.stringify(tool.outputSchema ?? {}).length,
      description: (tool.description ?? '').length,
      total: JSON.stringify(tool).length,
    }));
    console.table(sizes);
    for (const size of sizes) expect(size.total, size.tool).toBeLessThan(16 * 1024);
  });
});
