import { parseArgs } from 'node:util';
import type { StartSandboxOptions } from './start-sandbox.js';

/** What the command line asked for. */
export type CliCommand = { help: true } | { help: false; options: StartSandboxOptions };

export const USAGE = `Usage: browser-cloud-sandbox [options]

Starts the Browser Cloud sandbox on loopback.

Options:
  --fixture <path>             JSON fixture file (default: the built-in fixture)
  --port <n>                   port (default: $PORT, else 4020; 0 = any free port)
  --host <addr>                loopback address (default: 127.0.0.1)
  --flow-ttl-ms <n>            lifetime of a login flow (default: 600000)
  --keep-alive-ms <n>          log stream keep-alive interval (default: 15000)
  --retry-ms <n>               log stream retry: hint (default: 1000)
  --headers-timeout-ms <n>     request line and headers must arrive within (default: 10000)
  --request-timeout-ms <n>     the whole request must arrive within (default: 30000)
  --keep-alive-timeout-ms <n>  idle kept-alive connections close after (default: 5000)
  --cors-origin <origin>       let pages of this origin call the API (CORS); repeatable (default: none)
  --quiet                      no request log
  -h, --help                   this help`;

/** The options that take a number; each sets the option of its camel-cased name (`--flow-ttl-ms`: `flowTtlMs`). */
const NUMBERS = [
  'port',
  'flow-ttl-ms',
  'keep-alive-ms',
  'retry-ms',
  'headers-timeout-ms',
  'request-timeout-ms',
  'keep-alive-timeout-ms',
];

/** Parses `argv` (without node and the script). @throws Error with a message for the user. */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliCommand {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        ...Object.fromEntries(NUMBERS.map((flag) => [flag, { type: 'string' as const }])),
        fixture: { type: 'string' },
        host: { type: 'string' },
        'cors-origin': { type: 'string', multiple: true },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { help, quiet, fixture, host, 'cors-origin': corsOrigins, ...numbers } = values;
  if (help) return { help: true };
  const options: Record<string, unknown> = { quiet: quiet === true };
  if (env['PORT']) options['port'] = toNumber('PORT', env['PORT']);
  for (const [flag, text] of Object.entries(numbers)) {
    options[flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())] = toNumber(`--${flag}`, String(text));
  }
  for (const [name, value] of Object.entries({ fixture, host, corsOrigins })) {
    if (value !== undefined) options[name] = value;
  }
  return { help: false, options: options as StartSandboxOptions };
}

function toNumber(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a non-negative integer, not "${text}"`);
  return Number(text);
}
