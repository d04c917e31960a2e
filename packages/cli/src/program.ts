import { createRequire } from 'node:module';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { type CliIo, writeOut } from './cli-io.js';
import { login } from './commands/login.js';
import { tailLogs } from './commands/logs-tail.js';
import { renameProfile } from './commands/profiles-rename.js';
import { writeReport } from './error-output.js';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { parseTelemetry } from './telemetry-option.js';
import { forTerminal } from './terminal-text.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

const ENVIRONMENT_HELP = `Environment:
  BROWSER_CLOUD_BASE_URL  base address of the service, e.g. https://api.example.com (required)
  BROWSER_CLOUD_API_KEY   API key, sent as a bearer token (required; never printed)
  NO_COLOR                no colours on a terminal`;

/**
 * Runs the CLI on `argv` (without `node` and the script) and resolves to the exit code. Bad
 * usage and bad input give 2 before any request; see {@link EXIT} for the rest.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let code: number = EXIT.ok;
  const done = (promise: Promise<number>) =>
    promise.then((result) => {
      code = result;
    });

  // Commander's report of bad usage, held until it is known how to give it: as it is, or as JSON.
  let usageText = '';
  const program = new Command('browser-cloud')
    .description('Browser Cloud from the command line: start login flows, rename profiles, tail browser logs.')
    .version(version)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => {
        usageText += text;
      },
    })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', `\n${ENVIRONMENT_HELP}\n\n${EXIT_CODES_HELP}\n`);

  program
    .command('login')
    .description('Start a login flow for an auth connection (never retried: a second login meets 409).')
    .argument('<connection-id>', 'the auth connection ID')
    .option('--proxy-id <id>', 'log in through the proxy with this ID')
    .option('--proxy-name <name>', 'log in through the proxy with this name (one active proxy of the project)')
    .option('--record-session', "record this login's browser session")
    .option('--no-record-session', "do not record this login's browser session")
    .option(
      '--telemetry <spec>',
      'browser telemetry for this login: on, off, or categories, "-" turning one off, ":default" leaving one at its default (console,network,-captcha,page:default)',
      parseTelemetry,
    )
    .option('--json', 'print the result (or the error) as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ browser-cloud login ac_01HZY2R6F1J8K3P5S7T9V2X4ZA
  $ browser-cloud login ac_01HZY2R6F1J8K3P5S7T9V2X4ZA --proxy-name residential-us-east --record-session
  $ browser-cloud login ac_01HZY2R6F1J8K3P5S7T9V2X4ZA --telemetry on,console,network --json`,
    )
    .action((connectionId: string, options) => done(login(io, connectionId, options)));

  program
    .command('profiles')
    .description('Browser profiles.')
    .command('rename')
    .description('Rename a profile, by ID or by current name.')
    .argument('<id-or-name>', 'the profile ID or its current name')
    .argument('<new-name>', 'the new name, unique in the project (1 to 255 characters)')
    .option('--json', 'print the renamed profile (or the error) as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ browser-cloud profiles rename prof_01HZY5C7D9E1F3G5H7J9K1M3NA checkout-agent-eu
  $ browser-cloud profiles rename checkout-agent checkout-agent-eu --json`,
    )
    .action((idOrName: string, name: string, options) => done(renameProfile(io, idOrName, name, options)));

  program
    .command('logs')
    .description("A browser's logs.")
    .command('tail')
    .description(
      "Print a browser's log events. With --follow, keep printing new ones; a lost connection is resumed " +
        'with no event lost or repeated. Ctrl-C prints the last event ID, for --since-id.',
    )
    .argument('<browser-id>', 'the browser session ID')
    .option('--source <source>', 'what to read: path (a log file) or supervisor (a supervised process)')
    .option('--path <file>', "with --source path: the log file's path on the browser's machine")
    .option('--process <name>', "with --source supervisor: the supervised process's name")
    .option('--follow', 'keep streaming new lines (reconnects and resumes)')
    .option('--since-id <id>', 'start after this event ID (as printed when a tail is stopped)', parseEventId)
    .option(
      '--max-retries <n>',
      'consecutive failed reconnects before giving up (default 2, with --follow 10)',
      parseCount,
    )
    .option('--json', 'print NDJSON even on a terminal (a pipe always gets NDJSON)')
    .addHelpText(
      'after',
      `
Output: on a terminal, "timestamp message" lines, coloured, with a status line while reconnecting;
piped or with --json, one JSON object per line: {"id","event","timestamp","message"}.

Examples:
  $ browser-cloud logs tail br_01HZY4A2B3C4D5E6F7G8H9J0KA --source path --path /var/log/chromium/chrome_debug.log
  $ browser-cloud logs tail br_01HZY4A2B3C4D5E6F7G8H9J0KA --source supervisor --process chromium --follow
  $ browser-cloud logs tail br_01HZY4A2B3C4D5E6F7G8H9J0KA --source supervisor --process chromium --follow --since-id 42
  $ browser-cloud logs tail br_01HZY4A2B3C4D5E6F7G8H9J0KA --source path --path /var/log/agent.log | jq -r .message`,
    )
    .action((browserId: string, options) => done(tailLogs(io, browserId, options)));

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // Help and version end with 0; every parse error (unknown option, missing argument) is usage.
    if (error.exitCode === 0) return EXIT.ok;
    // `--json` asks for errors as JSON, bad usage included (whichever command it was given to).
    const operands = argv.indexOf('--');
    if ((operands === -1 ? argv : argv.slice(0, operands)).includes('--json')) {
      await writeReport(io, { type: 'UsageError', message: error.message.replace(/^error: /, '') }, true);
    } else {
      await writeOut(io.stderr, forTerminal(usageText, { lines: true }));
    }
    return EXIT.usage;
  }
  return code;
}

/**
 * An SSE event ID never holds a line break or NUL (a parsed `id:` cannot), and it travels as the
 * Last-Event-ID header, where fetch refuses every control character at sending time.
 */
function parseEventId(value: string): string {
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new InvalidArgumentError('an event ID has no control character (line break, NUL, ESC…).');
  }
  return value;
}

/** The most `--max-retries` allows: beyond it a tail would retry for weeks at the 8 s backoff cap. */
const MAX_RETRIES_LIMIT = 1_000_000;

function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number.');
  if (Number(value) > MAX_RETRIES_LIMIT) throw new InvalidArgumentError(`must be at most ${MAX_RETRIES_LIMIT}.`);
  return Number(value);
}
