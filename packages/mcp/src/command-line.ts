import { parseArgs } from 'node:util';
import { BASE_URL_ENV, createClient, TOKEN_ENV } from '@browser-cloud/client';
import { createMcpServer, VERSION } from './server.js';
import { stdioTransport } from './stdio-transport.js';
import type { ToolDefinition } from './tool-definition.js';
import {
  chooseTools,
  MAX_LISTED_TOOLS,
  OPERATION_KINDS,
  type OperationKind,
  resourceOf,
  type ToolChoice,
  ToolChoiceError,
  TOOLS_MODES,
  type ToolsMode,
} from './tool-selection.js';
import { DYNAMIC_TOOLS } from './tools/dynamic.js';

const PROGRAM = 'browser-cloud-mcp';
const DYNAMIC_NAMES = DYNAMIC_TOOLS.map((tool) => tool.name).join(', ');

/** What `--help` prints: the options, the tools these definitions make, the variables, the hosts. */
export function usage(definitions: readonly ToolDefinition[], bin: string): string {
  const resources = [...new Set(definitions.map(resourceOf))];
  const count = definitions.length;
  const here =
    count > MAX_LISTED_TOOLS
      ? 'Here, with no option, it starts in dynamic mode.'
      : `Here, with no option, it lists each: ${definitions.map((tool) => tool.name).join(', ')}.`;
  return `Usage: ${PROGRAM} [--tools=all|dynamic] [--resource=<name>]… [--operation=read|write]… [--tool=<name>]…
       ${PROGRAM} --help | --version

The Browser Cloud MCP server: it speaks MCP (JSON-RPC) over stdin and stdout, so an MCP host
starts it, not a person. It serves a tool per operation of the API, ${count} tools.
Dynamic mode: with more than ${MAX_LISTED_TOOLS} tools selected (hosts such as Cursor take about ${MAX_LISTED_TOOLS}) and no
--tools, it lists three tools instead, which find, describe and call every selected operation.
${here}

Options (each may be given more than once but --tools; <name> may hold * for any text):
  --tools=all           list every selected tool, however many
  --tools=dynamic       list three tools instead (${DYNAMIC_NAMES}),
                        which find, describe and call every selected operation
  --resource=<name>     the tools of this resource (${resources.join(', ')}),
                        e.g. --resource='browsers*' for browsers and its sub-resources
  --operation=read|write  only the tools that read (GET), or that write
  --tool=<name>         this tool
--resource and --tool add up; --operation keeps, of what they select (or of every tool), those
that read or write.

Environment (both required):
  ${BASE_URL_ENV}  base address of the service, e.g. https://api.example.com
  ${TOKEN_ENV}   API key, sent as a bearer token (never printed)

Add it to Claude Code (this bin, by its absolute path):
  claude mcp add browser-cloud -e ${BASE_URL_ENV}=https://api.example.com -e ${TOKEN_ENV}=sk_… -- node ${bin}

Or to a JSON-configured host: Claude Desktop and Cursor under "mcpServers",
  "browser-cloud": { "command": "node", "args": [${JSON.stringify(bin)}], "env": { "${BASE_URL_ENV}": "…", "${TOKEN_ENV}": "…" } }
VS Code (.vscode/mcp.json) under "servers", the same with "type": "stdio". Options follow the
bin: in "args" after its path, or after it on the command line of \`claude mcp add\`.

Exit status: 0 when stdin closes, 2 for bad usage or a missing or invalid variable.
`;
}

/** A command line the server cannot run: its message names the option and what it takes. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type CommandLine = { action: 'help' } | { action: 'version' } | { action: 'serve'; choice: ToolChoice };

/** The options that take a value. */
const VALUED = ['--tools', '--resource', '--operation', '--tool'];

const oneOf = <T extends string>(option: string, value: string | undefined, allowed: readonly T[]): T => {
  if (value !== undefined && (allowed as readonly string[]).includes(value)) return value as T;
  const given = value ? `--${option}=${value} is not allowed` : `--${option} needs a value`;
  throw new UsageError(`${given}: --${option} takes ${allowed.join(' or ')}`);
};

const unknownArgument = (argument: string) =>
  new UsageError(
    `unknown argument ${JSON.stringify(argument)}: the options are --tools, --resource, --operation, --tool, --help and --version`,
  );

/**
 * The command line read: `--help` and `--version` first, whatever else it holds.
 * @throws UsageError for an unknown argument or a value an option does not take.
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  // An option that takes a value, followed by another option, has none (parseArgs would take the
  // next option for it): given as `--resource=`, which says what the option takes.
  const args = argv.map((arg, index) =>
    VALUED.includes(arg) && (argv[index + 1] === undefined || argv[index + 1]!.startsWith('-')) ? `${arg}=` : arg,
  );
  // Strict parsing would stop at the first problem in node's words: the tokens are read here.
  const { tokens } = parseArgs({
    args,
    strict: false,
    allowPositionals: true,
    tokens: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'V' },
      tools: { type: 'string' },
      resource: { type: 'string', multiple: true },
      operation: { type: 'string', multiple: true },
      tool: { type: 'string', multiple: true },
    },
  });
  if (tokens.some((token) => token.kind === 'option' && token.name === 'help')) return { action: 'help' };
  if (tokens.some((token) => token.kind === 'option' && token.name === 'version')) return { action: 'version' };
  let mode: ToolsMode | undefined;
  const resources: string[] = [];
  const operations: OperationKind[] = [];
  const tools: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') throw unknownArgument(token.value);
    const { name, rawName, value } = token;
    // An empty name selects nothing: chooseTools names what there is.
    const text = (): string => value ?? '';
    if (name === 'tools') {
      if (mode !== undefined) throw new UsageError('--tools is given twice: it takes one value, all or dynamic');
      mode = oneOf('tools', value, TOOLS_MODES);
    } else if (name === 'operation') operations.push(oneOf('operation', value, OPERATION_KINDS));
    else if (name === 'resource') resources.push(text());
    else if (name === 'tool') tools.push(text());
    else throw unknownArgument(rawName);
  }
  return { action: 'serve', choice: { mode, resources, operations, tools } };
}

/** Ends the process with `status`, `text` on stdout (what a person asked for) or, for a failure, stderr. */
function exit(status: number, text: string): never {
  (status === 0 ? process.stdout : process.stderr).write(text);
  process.exit(status);
}

/**
 * The bin: reads the command line and the environment, and serves the chosen tools of
 * `definitions` on stdin and stdout. stdout carries the protocol: everything for people goes to
 * stderr, but --help and --version, which a person asked for and which start no server.
 */
export async function runCommandLine(
  definitions: readonly ToolDefinition[],
  bin: string,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  const help = `See ${PROGRAM} --help.\n`;
  let chosen: ReturnType<typeof chooseTools>;
  try {
    const commandLine = parseCommandLine(argv);
    if (commandLine.action === 'help') exit(0, usage(definitions, bin));
    if (commandLine.action === 'version') exit(0, `${VERSION}\n`);
    chosen = chooseTools(definitions, commandLine.choice);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ToolChoiceError)
      exit(2, `${PROGRAM}: ${error.message}\n${help}`);
    throw error;
  }
  // Blank counts as missing, as for the client, which would say so in a library's words.
  const missing = [BASE_URL_ENV, TOKEN_ENV].filter((name) => !process.env[name]?.trim());
  if (missing.length > 0) {
    exit(
      2,
      `${PROGRAM}: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set: ` +
        `set ${missing.length > 1 ? 'them' : 'it'} in the MCP host's configuration of this server (its env). ${help}`,
    );
  }
  let client: ReturnType<typeof createClient>;
  try {
    client = createClient();
  } catch (error) {
    exit(2, `${PROGRAM}: ${(error as Error).message}\n`);
  }
  if (chosen.automatic) {
    process.stderr.write(
      `${PROGRAM}: dynamic mode: ${chosen.tools.length} tools are more than the ${MAX_LISTED_TOOLS} hosts such as Cursor take, ` +
        `so it lists three (${DYNAMIC_NAMES}) that reach all of them. ` +
        'Choose fewer with --resource, --operation or --tool, or list them all with --tools=all.\n',
    );
  }
  await createMcpServer({ client, tools: chosen.tools, mode: chosen.mode }).connect(stdioTransport());
}
