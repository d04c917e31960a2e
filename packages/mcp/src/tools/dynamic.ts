import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { checkArguments } from '../tool-arguments.js';
import type { ToolDefinition } from '../tool-definition.js';
import { matches, OPERATION_KINDS, type OperationKind, operationKindOf, resourceOf } from '../tool-selection.js';

/**
 * Dynamic mode (`--tools=dynamic`, and the default beyond 40 tools): three meta-tools, as
 * Stainless-generated MCP servers have them, reach every selected operation, so that a host holds
 * three definitions whatever the size of the API: one lists the endpoints (the tools of the other
 * mode), one gives an endpoint's input schema, one calls an endpoint.
 */
export const LIST_ENDPOINTS = 'list_api_endpoints';
export const GET_ENDPOINT_SCHEMA = 'get_api_endpoint_schema';
export const INVOKE_ENDPOINT = 'invoke_api_endpoint';

const endpointArgument = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: `An endpoint's name, as ${LIST_ENDPOINTS} gives it.`,
};

/** The meta-tools as `tools/list` gives them, each a plain object schema that every host accepts. */
export const DYNAMIC_TOOLS: readonly Tool[] = [
  {
    name: LIST_ENDPOINTS,
    title: 'List the API endpoints',
    description: [
      'Lists the endpoints of the Browser Cloud API this server calls: each its name, its resource, whether it reads or',
      `writes, and its summary. Narrow the list with \`search\`, \`resource\` or \`operation\`. Then ${GET_ENDPOINT_SCHEMA}`,
      `gives an endpoint's arguments, and ${INVOKE_ENDPOINT} calls it.`,
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        search: {
          type: 'string',
          maxLength: 200,
          description: 'Text the name, the resource, the summary or the description holds (any case).',
        },
        resource: {
          type: 'string',
          maxLength: 200,
          description: 'A resource (`profiles`, `auth.connections`); `*` stands for any text (`browsers*`).',
        },
        operation: {
          type: 'string',
          enum: [...OPERATION_KINDS],
          description: 'Only the endpoints that read, or write.',
        },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        endpoints: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              endpoint: { type: 'string' },
              resource: { type: 'string' },
              operation: { type: 'string', enum: [...OPERATION_KINDS] },
              summary: { type: 'string' },
            },
            required: ['endpoint', 'resource', 'operation', 'summary'],
          },
        },
      },
      required: ['endpoints'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: GET_ENDPOINT_SCHEMA,
    title: "Get an API endpoint's schema",
    description: `Gives an endpoint's description, the JSON Schema of its arguments (for ${INVOKE_ENDPOINT}), the schema of its result and its hints.`,
    inputSchema: {
      type: 'object',
      properties: { endpoint: endpointArgument },
      required: ['endpoint'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: INVOKE_ENDPOINT,
    title: 'Call an API endpoint',
    description: [
      `Calls an endpoint with \`args\`, which must match the schema ${GET_ENDPOINT_SCHEMA} gives: nothing is sent`,
      'otherwise, and the error names each argument and its rule. Returns what the endpoint returns.',
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        endpoint: endpointArgument,
        args: { type: 'object', description: "The endpoint's arguments; `{}` when it takes none." },
      },
      required: ['endpoint', 'args'],
      additionalProperties: false,
    },
  },
];

/** A meta-tool's arguments, checked against its input schema. @throws ValidationError naming each one wrong. */
function checked(name: string, args: Record<string, unknown>): Record<string, unknown> {
  const tool = DYNAMIC_TOOLS.find((meta) => meta.name === name)!;
  checkArguments(tool, tool.inputSchema, args);
  return args;
}

/** A generated tool as `tools/list` (or, in dynamic mode, `get_api_endpoint_schema`) gives it. */
export function listed({ name, title, description, inputSchema, outputSchema, annotations }: ToolDefinition): Tool {
  return { name, title, description, inputSchema, outputSchema, ...(annotations ? { annotations } : {}) };
}

/** Calls a generated tool: what a call of it by name would answer. */
export type CallEndpoint = (
  tool: ToolDefinition,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<CallToolResult>;

/**
 * The meta-tools over `endpoints`: a handler by meta-tool name. A call is answered with the tool
 * result of the endpoint, or a tool error naming what is wrong (an unknown endpoint, an argument).
 */
export function dynamicHandlers(endpoints: readonly ToolDefinition[], call: CallEndpoint) {
  const byName = new Map(endpoints.map((tool) => [tool.name, tool]));
  const find = (name: string): ToolDefinition => {
    const tool = byName.get(name);
    if (!tool) {
      throw new UnknownEndpointError(
        `Unknown endpoint "${name}": ${LIST_ENDPOINTS} lists the ${endpoints.length} endpoints of this server.`,
      );
    }
    return tool;
  };
  type Handler = (
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) => Promise<CallToolResult> | Record<string, unknown>;
  return new Map<string, Handler>([
    [
      LIST_ENDPOINTS,
      (args) => {
        const { search, resource, operation } = checked(LIST_ENDPOINTS, args) as {
          search?: string;
          resource?: string;
          operation?: OperationKind;
        };
        const needle = search?.toLowerCase();
        const found = endpoints.filter(
          (tool) =>
            (needle === undefined ||
              [tool.name, resourceOf(tool), tool.title, tool.description].some((text) =>
                text.toLowerCase().includes(needle),
              )) &&
            (resource === undefined || matches(resource, resourceOf(tool))) &&
            (operation === undefined || operationKindOf(tool) === operation),
        );
        return {
          endpoints: found.map((tool) => ({
            endpoint: tool.name,
            resource: resourceOf(tool),
            operation: operationKindOf(tool),
            summary: tool.title,
          })),
        };
      },
    ],
    [
      GET_ENDPOINT_SCHEMA,
      (args) => {
        const { name, ...tool } = listed(find(checked(GET_ENDPOINT_SCHEMA, args)['endpoint'] as string));
        return { endpoint: name, ...tool };
      },
    ],
    [
      INVOKE_ENDPOINT,
      (args, signal) => {
        const { endpoint, args: endpointArgs } = checked(INVOKE_ENDPOINT, args);
        return call(find(endpoint as string), endpointArgs as Record<string, unknown>, signal);
      },
    ],
  ]);
}

/** A meta-tool called with an endpoint this server does not serve. */
export class UnknownEndpointError extends Error {
  override readonly name = 'UnknownEndpointError';
}
