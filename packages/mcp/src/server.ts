import { createRequire } from 'node:module';
import { type BrowserCloudClient, callOperation } from '@browser-cloud/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
import { type SortedArguments, sortArguments } from './tool-arguments.js';
import type { ToolDefinition } from './tool-definition.js';
import { errorResult, toolResult } from './tool-results.js';
import { tailLog } from './tools/log-tail.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The client the tools call; its token never reaches a tool's output. */
  client: BrowserCloudClient;
  /** The tools to serve: by default {@link TOOL_DEFINITIONS}, one per operation of the document. */
  tools?: readonly ToolDefinition[] | undefined;
}

/**
 * An MCP server (not yet connected) with a tool per operation of the document (the paged log
 * tail for its event stream). Connect it to a transport, e.g.
 * `await createMcpServer({ client }).connect(new StdioServerTransport())`.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { client, tools = Object.values(TOOL_DEFINITIONS) as ToolDefinition[] } = options;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server({ name: 'browser-cloud', version }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    // An unknown tool is the caller's protocol mistake, not a result of the tool.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      const args = sortArguments(tool, request.params.arguments);
      return toolResult(await callTool(client, tool, args, extra.signal));
    } catch (error) {
      return errorResult(error, tool);
    }
  });
  return server;
}

/** Calls the tool's operation and gives its answer as the tool's structured result (an object, for MCP). */
async function callTool(
  client: BrowserCloudClient,
  tool: ToolDefinition,
  args: SortedArguments,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  if (tool.answer === 'log-events') return { ...(await tailLog(client, tool, args, signal)) };
  const answer = await callOperation(client, tool.call, args, { signal });
  if (tool.answer === 'none') return {};
  return tool.answer === 'value' ? { result: answer } : { ...(answer as Record<string, unknown>) };
}

function describeTool(definition: ToolDefinition): Tool {
  const { name, title, description, inputSchema, outputSchema, annotations } = definition;
  return { name, title, description, inputSchema, outputSchema, annotations };
}
