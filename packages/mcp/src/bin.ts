#!/usr/bin/env node
import { createClient } from '@browser-cloud/client';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './server.js';

// stdout carries the protocol: everything for people goes to stderr.
let client: ReturnType<typeof createClient>;
try {
  // BROWSER_CLOUD_BASE_URL and BROWSER_CLOUD_API_KEY, as for the client.
  client = createClient();
} catch (error) {
  process.stderr.write(`browser-cloud-mcp: ${(error as Error).message}\n`);
  process.exit(2);
}
await createMcpServer({ client }).connect(new StdioServerTransport());
