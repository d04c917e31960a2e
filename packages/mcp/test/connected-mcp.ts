import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, type McpServerOptions } from '../src/server.js';

/** An MCP client of the test's process connected to a server made with `options`; close it when done. */
export async function connectedMcp(options: McpServerOptions): Promise<Client> {
  const [near, far] = InMemoryTransport.createLinkedPair();
  await createMcpServer(options).connect(far);
  const mcp = new Client({ name: 'test', version: '0' });
  await mcp.connect(near);
  return mcp;
}
