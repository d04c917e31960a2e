import { parseArgs } from 'node:util';
import type { StartSandboxOptions } from './start-sandbox.js';

/** What the command line asked for. */
export type CliCommand = { help: true } | { help: false; options: StartSandboxOptions };

/**
 * Each option: its flag, its value (`<n>` is a number), what it does. A flag sets the option of
 * its camel-cased name (`--flow-ttl-ms`: `flowTtlMs`; `--cors-origin`, repeatable: `corsOrigins`).
 */
const OPTIONS = [
  ['fixture', '<path>', 'JSON fixture file (default: the built-in fixture)'],
  ['port', '<n>', 'port (default: $PORT, else 4020; 0 = any free port)'],
  ['host', '<addr>', 'loopback address (default: 127.0.0.1)'],
  ['flow-ttl-ms', '<n>', 'lifetime of a login flow (default: 600000)'],
  ['keep-alive-ms', '<n>', 'log stream keep-alive interval (default: 15000)'],
  ['retry-ms', '<n>', 'log stream retry: hint (default: 1000)'],
  ['headers-timeout-ms', '<n>', 'request line and headers must arrive within (default: 10000)'],
  ['request-timeout-ms', '<n>', 'the whole request must arrive within (default: 30000)'],
  ['keep-alive-timeout-ms', '<n>', 'idle kept-alive connections close after (default: 5000)'],
  ['cors-origin', '<origin>', 'let pages of this origin call the API (CORS); repeatable (default: none)'],
  ['quiet', '', 'no request log'],
] as const;

export const USAGE = `Usage: browser-cloud-sandbox [options]

Starts the Browser Cloud sandbox on loopback.

Options:
${OPTIONS.map(([flag, value, text]) => `  ${`--${flag} ${value}`.padEnd(29)}${text}`).join('\n')}
  ${'-h, --help'.padEnd(29)}this help`;

/** Parses `argv` (without node and the script). @throws Error with a message for the user. */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliCommand {
  let values: Record<string, unknown>;
  try {
    const types = OPTIONS.map(([flag, value]) => [
      flag,
      { type: value ? 'string' : 'boolean', multiple: flag === 'cors-origin' } as const,
    ]);
    ({ values } = parseArgs({
      args: [...argv],
      options: { ...Object.fromEntries(types), help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (values['help']) return { help: true };
  const options: Record<string, unknown> = { quiet: values['quiet'] === true };
  if (env['PORT']) options['port'] = toNumber('PORT', env['PORT']);
  for (const [flag, value] of OPTIONS) {
    const given = values[flag];
    const name = flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    if (flag === 'cors-origin' && given !== undefined) options['corsOrigins'] = given;
    else if (typeof given === 'string') options[name] = value === '<n>' ? toNumber(`--${flag}`, given) : given;
  }
  return { help: false, options: options as StartSandboxOptions };
}

function toNumber(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a non-negative integer, not "${text}"`);
  return Number(text);
}
