import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { BASE_URL_ENV, TOKEN_ENV } from '@browser-cloud/client';
import { TOOL_DEFINITIONS } from './generated/tool-definitions.js';

export const { version: VERSION } = createRequire(import.meta.url)('../package.json') as { version: string };

/** This bin's absolute path: what a host runs. */
const BIN = fileURLToPath(new URL('./bin.js', import.meta.url));

export const USAGE = `Usage: browser-cloud-mcp [--help | --version]

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

export type CommandLine =
  | { kind: 'serve' }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'usage'; message: string };

/** What the arguments ask for: the server takes none but `--help` and `--version`. */
export function commandLine(argv: readonly string[]): CommandLine {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return { kind: 'help' };
  if (argv.some((arg) => arg === '--version' || arg === '-V')) return { kind: 'version' };
  const [first] = argv;
  if (first !== undefined) return { kind: 'usage', message: `unknown argument ${JSON.stringify(first)}` };
  return { kind: 'serve' };
}
