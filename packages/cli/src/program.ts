import { createRequire } from 'node:module';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { type CliIo, writeOut } from './cli-io.js';
import type { CommandDefinition } from './command-definition.js';
import { TAIL_FLAGS, tailLogs } from './commands/logs-tail.js';
import { EXIT, EXIT_CODES_HELP, writeReport } from './exit-codes.js';
import { COMMAND_DEFINITIONS, STREAM_OPTIONS } from './generated/command-definitions.js';
import { addOperationCommands, givenValues, groupOf, optionsOf } from './operation-commands.js';
import { forTerminal } from './terminal-text.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

const ENVIRONMENT_HELP = `Environment:
  BROWSER_CLOUD_BASE_URL  base address of the service, e.g. https://api.example.com (required)
  BROWSER_CLOUD_API_KEY   API key, sent as a bearer token (required; never printed)
  NO_COLOR                no colours on a terminal`;

/**
 * Runs the CLI on `argv` (without `node` and the script) and resolves to the exit code. Bad
 * usage and bad input give 2 before any request; see {@link EXIT} for the rest. `commands` are
 * the operations' commands: by default those generated from the document, one per operation.
 */
export async function run(
  argv: readonly string[],
  io: CliIo,
  commands: readonly CommandDefinition[] = COMMAND_DEFINITIONS,
): Promise<number> {
  let code: number = EXIT.ok;
  const done = async (run: Promise<number>) => {
    code = await run;
  };

  // Commander's report of bad usage, held until it is known how to give it: as it is, or as JSON.
  let usageText = '';
  const program = new Command('browser-cloud')
    .description('The Browser Cloud API from the command line: a command per operation, and logs tail.')
    .version(version)
    // The program's options (--version) only before a command: after it, an input named
    // `version` is that command's own option.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => {
        usageText += text;
      },
    })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', `\n${ENVIRONMENT_HELP}\n\n${EXIT_CODES_HELP}\n`);

  addOperationCommands(program, commands, io, done);

  // The stream's query parameters, as the document has them, its flags renamed where the tail says so.
  const streamOptions = (STREAM_OPTIONS.streamBrowserLogs ?? []).map((option) =>
    Object.hasOwn(TAIL_FLAGS, option.name) ? { ...option, flag: TAIL_FLAGS[option.name]! } : option,
  );
  // Beside the generated commands of a `logs` resource, if the document has one.
  const tail = groupOf(program, ['logs'], "A browser's logs.")
    .command('tail')
    .description(
      "Print a browser's log events. With --follow, keep printing new ones; a lost connection is resumed " +
        'with no event lost or repeated. Ctrl-C prints the last event ID, for --since-id.',
    )
    .argument('<browser-id>', 'the browser session ID');
  for (const option of optionsOf(streamOptions)) tail.addOption(option);
  tail
    .option('--since-id <id>', 'start after this event ID (as printed when a tail is stopped)')
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
    .action((browserId: string, options) =>
      done(tailLogs(io, browserId, givenValues(streamOptions, options).query, options)),
    );

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

/** `--max-retries`: a whole number up to 1,000,000, beyond which a tail would retry for weeks at the 8 s backoff cap. */
function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number.');
  if (Number(value) > 1_000_000) throw new InvalidArgumentError('must be at most 1000000.');
  return Number(value);
}
