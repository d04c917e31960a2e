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

const NUMBER_FLAGS = {
  '--port': 'port',
  '--flow-ttl-ms': 'flowTtlMs',
  '--keep-alive-ms': 'keepAliveMs',
  '--retry-ms': 'retryMs',
  '--headers-timeout-ms': 'headersTimeoutMs',
  '--request-timeout-ms': 'requestTimeoutMs',
  '--keep-alive-timeout-ms': 'keepAliveTimeoutMs',
} as const;

/** Parses `argv` (without node and the script). @throws Error with a message for the user. */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliCommand {
  const options: StartSandboxOptions = { quiet: false };
  if (env['PORT'] !== undefined && env['PORT'] !== '') options.port = toNumber('PORT', env['PORT']);
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = splitFlag(argv[i] ?? '');
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '-h' || flag === '--help') return { help: true };
    if (flag === '--quiet') options.quiet = true;
    else if (flag === '--fixture') options.fixture = value();
    else if (flag === '--host') options.host = value();
    else if (flag === '--cors-origin') options.corsOrigins = [...(options.corsOrigins ?? []), value()];
    else if (flag in NUMBER_FLAGS) options[NUMBER_FLAGS[flag as keyof typeof NUMBER_FLAGS]] = toNumber(flag, value());
    else throw new Error(`unknown option ${flag}\n\n${USAGE}`);
  }
  return { help: false, options };
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}

function toNumber(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a non-negative integer, not "${text}"`);
  return Number(text);
}
