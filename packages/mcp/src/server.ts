import { createRequire } from 'node:module';
import {
  APIError,
  AuthenticationError,
  type BrowserCloudClient,
  BrowserCloudError,
  ConflictError,
  callOperation,
  refusedTokenHint,
  ValidationError,
} from '@browser-cloud/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
import { type SortedArguments, sortArguments } from './tool-arguments.js';
import type { ToolDefinition } from './tool-definition.js';
import type { ToolsMode } from './tool-selection.js';
import { DYNAMIC_TOOLS, dynamicHandlers, listed, UnknownEndpointError } from './tools/dynamic.js';
import { tailLog } from './tools/log-tail.js';

export const { version: VERSION } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The client the tools call; its token never reaches a tool's output. */
  client: BrowserCloudClient;
  /** The tools to serve: by default {@link TOOL_DEFINITIONS}, one per operation of the document. */
  tools?: readonly ToolDefinition[] | undefined;
  /**
   * How: each tool listed (`all`, the default), or through three meta-tools that list, describe and
   * call them (`dynamic`, for an API of more tools than a host takes).
   */
  mode?: ToolsMode | undefined;
}

/** An MCP server with a tool per operation of the document: `await createMcpServer({ client }).connect(stdioTransport())`. */
export function createMcpServer(options: McpServerOptions): Server {
  const { client, tools = Object.values(TOOL_DEFINITIONS) as ToolDefinition[], mode = 'all' } = options;
  const server = new Server({ name: 'browser-cloud', version: VERSION }, { capabilities: { tools: {} } });
  const call = async (tool: ToolDefinition, args: Record<string, unknown> | undefined, signal: AbortSignal) => {
    try {
      return toolResult(await callTool(client, tool, sortArguments(tool, args), signal));
    } catch (error) {
      return errorResult(error, tool);
    }
  };

  if (mode === 'dynamic') {
    const handlers = dynamicHandlers(tools, call);
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...DYNAMIC_TOOLS] }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const handler = handlers.get(request.params.name);
      if (!handler) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      try {
        const result = await handler(request.params.arguments ?? {}, extra.signal);
        // invoke_api_endpoint answers as the endpoint does; the others with what they found.
        return 'content' in result ? (result as CallToolResult) : toolResult(result);
      } catch (error) {
        return errorResult(error);
      }
    });
    return server;
  }

  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(listed) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    // An unknown tool is the caller's protocol mistake, not a result of the tool.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return call(tool, request.params.arguments, extra.signal);
  });
  return server;
}

/** Calls the tool's operation and gives its answer as the tool's structured result (an object, for MCP). */
async function callTool(client: BrowserCloudClient, tool: ToolDefinition, args: SortedArguments, signal: AbortSignal) {
  if (tool.answer === 'log-events') return { ...(await tailLog(client, tool, args, signal)) };
  const answer = await callOperation(client, tool.call, args, { signal });
  if (tool.answer === 'none') return {};
  return tool.answer === 'value' ? { result: answer } : { ...(answer as Record<string, unknown>) };
}

/** A tool's answer: the same object as text (for models that read text) and as structured content. */
export function toolResult(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A failure as a tool error the model can act on, not a protocol error. The client's errors never
 * hold the token; anything else is reported by class only: its message was not written with the
 * token in mind.
 */
export function errorResult(error: unknown, tool?: ToolDefinition): CallToolResult {
  const result = (...lines: string[]): CallToolResult => ({
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
  });
  if (error instanceof ValidationError) return result(`Invalid arguments, nothing was sent: ${error.message}`);
  if (error instanceof APIError) {
    const lines = [`The API answered ${error.message}`];
    if (error instanceof ConflictError && tool?.conflictHint) lines.push(tool.conflictHint);
    // The model cannot fix this; the person who configured the server can.
    if (error instanceof AuthenticationError) {
      lines.push(refusedTokenHint("the MCP server's configuration (its env)"));
    }
    if (error.requestId) lines.push(`Request ID: ${error.requestId}`);
    return result(...lines);
  }
  if (error instanceof BrowserCloudError) return result(`${error.name}: ${error.message}`);
  if (error instanceof UnknownEndpointError) return result(error.message);
  return result(`Unexpected failure of the MCP server (${error instanceof Error ? error.name : typeof error}).`);
}
