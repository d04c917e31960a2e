#!/usr/bin/env node
import { BASE_URL_ENV, createClient, TOKEN_ENV } from '@browser-cloud/client';
import { commandLine, USAGE, VERSION } from './command-line.js';
import { createMcpServer } from './server.js';
import { stdioTransport } from './stdio-transport.js';

// stdout carries the protocol: everything for people goes to stderr (but --help and --version,
// which a person asked for and which start no server).
const request = commandLine(process.argv.slice(2));
if (request.kind === 'help') {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (request.kind === 'version') {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}
if (request.kind === 'usage') {
  process.stderr.write(`browser-cloud-mcp: ${request.message}\n\n${USAGE}`);
  process.exit(2);
}

// Blank counts as missing, as for the client, which would say so in a library's words.
const missing = [BASE_URL_ENV, TOKEN_ENV].filter((name) => !process.env[name]?.trim());
if (missing.length > 0) {
  process.stderr.write(
    `browser-cloud-mcp: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set: ` +
      "set them in the MCP host's configuration of this server (its env). See browser-cloud-mcp --help.\n",
  );
  process.exit(2);
}
let client: ReturnType<typeof createClient>;
try {
  // BROWSER_CLOUD_BASE_URL and BROWSER_CLOUD_API_KEY, as for the client.
  client = createClient();
} catch (error) {
  process.stderr.write(`browser-cloud-mcp: ${(error as Error).message}\n`);
  process.exit(2);
}
await createMcpServer({ client }).connect(stdioTransport());
