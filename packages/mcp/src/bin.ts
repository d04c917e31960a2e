#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { BASE_URL_ENV, createClient, TOKEN_ENV } from '@browser-cloud/client';
import { TOOL_DEFINITIONS } from './generated/tool-definitions.js';
import { createMcpServer, VERSION } from './server.js';
import { stdioTransport } from './stdio-transport.js';

/** This bin's absolute path: what a host runs. */
const BIN = fileURLToPath(import.meta.url);

const USAGE = `Usage: browser-cloud-mcp [--help | --version]

The Browser Cloud MCP server: it speaks MCP (JSON-RPC) over stdin and stdout, so an MCP host
starts it, not a person. Tools: ${Object.keys(TOOL_DEFINITIONS).join(', ')}.

Environment (both required):
  ${BASE_URL_ENV}  base address of the service, e.g. https://api.example.com
  ${TOKEN_ENV}   API key, sent as a bearer token (never printed)

Add it to Claude Code (this bin, by its absolute path):
  claude mcp add browser-cloud -e ${BASE_URL_ENV}=https://api.example.com -e ${TOKEN_ENV}=sk_… -- node ${BIN}

Or to a JSON-configured host: Claude Desktop and Cursor under "mcpServers",
  "browser-cloud": { "command": "node", "args": [${JSON.stringify(BIN)}], "env": { "${BASE_URL_ENV}": "…", "${TOKEN_ENV}": "…" } }
VS Code (.vscode/mcp.json) under "servers", the same with "type": "stdio".

Exit status: 0 when stdin closes, 2 for bad usage or a missing or invalid variable.
`;

/** Ends the process with `status`, `text` on stdout (what a person asked for) or, for a failure, stderr. */
function exit(status: number, text: string): never {
  (status === 0 ? process.stdout : process.stderr).write(text);
  process.exit(status);
}

// stdout carries the protocol: everything for people goes to stderr, but --help and --version,
// which a person asked for and which start no server. The server takes no other argument.
const argv = process.argv.slice(2);
if (argv.some((arg) => arg === '--help' || arg === '-h')) exit(0, USAGE);
if (argv.some((arg) => arg === '--version' || arg === '-V')) exit(0, `${VERSION}\n`);
if (argv[0] !== undefined) exit(2, `browser-cloud-mcp: unknown argument ${JSON.stringify(argv[0])}\n\n${USAGE}`);

// Blank counts as missing, as for the client, which would say so in a library's words.
const missing = [BASE_URL_ENV, TOKEN_ENV].filter((name) => !process.env[name]?.trim());
if (missing.length > 0) {
  exit(
    2,
    `browser-cloud-mcp: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set: ` +
      `set ${missing.length > 1 ? 'them' : 'it'} in the MCP host's configuration of this server (its env). See browser-cloud-mcp --help.\n`,
  );
}
let client: ReturnType<typeof createClient>;
try {
  client = createClient();
} catch (error) {
  exit(2, `browser-cloud-mcp: ${(error as Error).message}\n`);
}
await createMcpServer({ client }).connect(stdioTransport());
