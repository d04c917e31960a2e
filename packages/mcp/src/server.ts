import { createRequire } from 'node:module';
import type { BrowserCloudClient } from '@browser-cloud/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { sortArguments } from './tool-arguments.js';
import { errorResult, toolResult } from './tool-results.js';
import { loginAuthConnection } from './tools/login-auth-connection.js';
import type { McpTool } from './tools/mcp-tool.js';
import { renameProfile } from './tools/rename-profile.js';
import { tailBrowserLogs } from './tools/tail-browser-logs.js';

const TOOLS: readonly McpTool[] = [loginAuthConnection, renameProfile, tailBrowserLogs];

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** The client the tools call; its token never reaches a tool's output. */
  client: BrowserCloudClient;
}

/**
 * An MCP server (not yet connected) with the three tools: `login_auth_connection`,
 * `rename_profile` and `tail_browser_logs`. Connect it to a transport, e.g.
 * `await createMcpServer({ client }).connect(new StdioServerTransport())`.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { client } = options;
  const byName = new Map(TOOLS.map((tool) => [tool.definition.name, tool]));
  const server = new Server({ name: 'browser-cloud', version }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map(describeTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    // An unknown tool is the caller's protocol mistake, not a result of the tool.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      const args = sortArguments(tool.definition, request.params.arguments);
      return toolResult(await tool.call(client, args, extra.signal));
    } catch (error) {
      return errorResult(error, tool);
    }
  });
  return server;
}

function describeTool({ definition, annotations }: McpTool): Tool {
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: definition.inputSchema,
    outputSchema: definition.outputSchema,
    annotations,
  };
}
