import { createClient } from '@browser-cloud/client';
import { findOperation, loadOpenApiDocument, OPENAPI_PATH } from '@browser-cloud/openapi-document';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
import { createMcpServer } from './server.js';

/**
 * What hosts accept of a tool, as they publish it. The MCP SDK's own client accepts any
 * schema, so these rules are written out here and checked on what `tools/list` answers.
 *
 * - Claude API, "Tool use" (docs.anthropic.com, `input_schema`): a JSON Schema object with
 *   `type: "object"`; the API refuses `oneOf`, `allOf` or `anyOf` at the top level ("input_schema
 *   does not support oneOf, allOf, or anyOf at the top level"), and Claude Code drops such an MCP
 *   tool silently, a top-level `allOf` of `if/then` included. Tool names match
 *   `^[a-zA-Z0-9_-]{1,64}$`.
 * - OpenAI function calling (platform.openai.com, "Function calling" and "Structured Outputs",
 *   supported schemas): `parameters` is an object schema whose root is `type: "object"`, not an
 *   `anyOf`; composition and conditionals (`allOf`, `not`, `if/then/else`,
 *   `dependentRequired`, `dependentSchemas`, `patternProperties`) are not in the supported
 *   subset of strict mode; function names match `^[a-zA-Z0-9_-]{1,64}$`. Strict mode (every
 *   property required, every object closed) is opt-in and not what MCP hosts send; without it
 *   nested keywords pass through, as they do on the Claude API (nested `oneOf`, `anyOf`, `if/then`
 *   inside a property are accepted), so the rules below hold at the top level, and a `$ref`
 *   (with nothing to resolve it against, once the definitions are inlined) is refused anywhere.
 * - Both: keywords under `properties` are what the model reads, so the rules the document
 *   states across arguments must be in their descriptions (and the server checks them).
 */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const NOT_AT_TOP_LEVEL = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', '$ref', 'enum', 'const'];
const NOT_AT_TOP_LEVEL_OPENAI = ['dependentRequired', 'dependentSchemas', 'patternProperties'];
const NOWHERE = ['$ref'];

/** Every schema under `schema` (itself included), with the path to it. */
function* schemas(schema: unknown, path = '#'): Generator<[string, Record<string, unknown>]> {
  if (typeof schema !== 'object' || schema === null) return;
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) yield* schemas(item, `${path}/${index}`);
    return;
  }
  const object = schema as Record<string, unknown>;
  yield [path, object];
  for (const [key, value] of Object.entries(object)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const [name, property] of Object.entries(value)) yield* schemas(property, `${path}/properties/${name}`);
    } else if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') {
      yield* schemas(value, `${path}/${key}`);
    }
  }
}

/** The host rules a tool breaks; empty when every host above accepts it. */
export function hostRuleViolations(tool: Tool): string[] {
  const violations: string[] = [];
  if (!NAME.test(tool.name)) violations.push(`name ${tool.name} does not match ${NAME}`);
  const input = tool.inputSchema as Record<string, unknown>;
  if (input['type'] !== 'object') violations.push('inputSchema: type is not "object"');
  if (typeof input['properties'] !== 'object') violations.push('inputSchema: no properties');
  for (const keyword of [...NOT_AT_TOP_LEVEL, ...NOT_AT_TOP_LEVEL_OPENAI]) {
    if (keyword in input) violations.push(`inputSchema: ${keyword} at the top level`);
  }
  for (const [path, schema] of schemas(input)) {
    for (const keyword of NOWHERE) if (keyword in schema) violations.push(`${path}: ${keyword}`);
  }
  return violations;
}

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
      name: 'tail browser logs',
      inputSchema: { ...tool!.inputSchema, allOf: [{ if: {}, then: { $ref: '#/$defs/x' } }] },
    } as Tool;
    expect(hostRuleViolations(broken)).toEqual([
      'name tail browser logs does not match /^[a-zA-Z0-9_-]{1,64}$/',
      'inputSchema: allOf at the top level',
      '#/allOf/0/then: $ref',
    ]);
    expect(
      hostRuleViolations({ ...tool!, inputSchema: { type: 'object', properties: {}, oneOf: [] } } as Tool),
    ).toEqual(['inputSchema: oneOf at the top level']);
  });

  it('states each rule the document puts across the query in the description of the argument it requires', () => {
    const document = loadOpenApiDocument(OPENAPI_PATH);
    const tail = tools.find((tool) => tool.name === 'tail_browser_logs')!;
    const operation = findOperation(document, TOOL_DEFINITIONS.tail_browser_logs.operationId);
    expect(operation.path).toBe(TOOL_DEFINITIONS.tail_browser_logs.path);
    const query = document.components?.schemas?.['LogStreamQuery'] as { allOf?: unknown[] } | undefined;
    const rules = (query?.allOf ?? []) as Array<{
      if: { properties: Record<string, { const: string }> };
      then: { required: string[] };
    }>;
    expect(rules.length).toBeGreaterThan(0);
    const properties = tail.inputSchema.properties as Record<string, { description?: string }>;
    for (const rule of rules) {
      const [[name, { const: value }]] = Object.entries(rule.if.properties) as [[string, { const: string }]];
      for (const required of rule.then.required) {
        expect(properties[required]?.description).toMatch(new RegExp(`[Rr]equired.*\`${name}\` is \`${value}\``));
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
