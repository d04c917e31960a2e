import { callOperation } from '@browser-cloud/client';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type CliIo, writeOut } from './cli-io.js';
import type { CommandDefinition, CommandOption } from './command-definition.js';
import { withClient } from './connect.js';
import { EXIT } from './exit-codes.js';
import { parseTelemetry, TELEMETRY_SYNTAX } from './telemetry-option.js';
import { forTerminal, jsonForTerminal } from './terminal-text.js';

/** Shorter syntaxes than JSON for the values of some schemas, by the schema's title. */
const SCHEMA_PARSERS: Record<string, { parse: (value: string) => unknown; syntax: string }> = {
  BrowserTelemetryRequestConfig: { parse: parseTelemetry, syntax: TELEMETRY_SYNTAX },
};

/** Adds a command per definition to `program`, in its group (`auth connections login`); `done` takes each run. */
export function addOperationCommands(
  program: Command,
  definitions: readonly CommandDefinition[],
  io: CliIo,
  done: (run: Promise<number>) => void,
): void {
  for (const definition of definitions) {
    let parent = program;
    for (const name of definition.command.slice(0, -1)) {
      parent =
        parent.commands.find((command) => command.name() === name) ??
        parent.command(name).description(definition.group);
    }
    const command = parent
      .command(definition.command.at(-1)!)
      .description(definition.summary)
      .addHelpText('after', definition.help);
    for (const argument of definition.arguments) command.argument(`<${argument.flag}>`, argument.description);
    for (const option of definition.options) for (const made of optionsOf(option)) command.addOption(made);
    command
      .option('--json', 'print the answer (or the error) as JSON')
      .action((...values: unknown[]) => done(runOperation(io, definition, values)));
  }
}

function optionsOf(option: CommandOption): Option[] {
  const flag = `--${option.flag}`;
  if (option.type === 'boolean') {
    return [new Option(flag, option.description), new Option(`--no-${option.flag}`, `sends ${flag} as false`)];
  }
  const parser = option.schema === undefined ? undefined : SCHEMA_PARSERS[option.schema];
  const value = option.type === 'json' ? (parser ? 'spec' : 'json') : (option.member ?? option.flag);
  const made = new Option(`${flag} <${value}>`, `${option.description}${parser ? ` ${parser.syntax}.` : ''}`);
  if (option.choices) return [made.choices(option.choices)];
  // A number or an object as JSON writes it; whether it fits the schema is the client's check.
  if (option.type === 'string') return [made];
  return [made.argParser((text) => parseJson(text, parser?.parse, option.type === 'json' ? 'JSON' : 'a number'))];
}

/** Commander takes a parsed `null` for no value: it stands for JSON's null until the body is made. */
const JSON_NULL = Symbol('null');

function parseJson(text: string, parse: ((text: string) => unknown) | undefined, what: string): unknown {
  try {
    return JSON.parse(text) ?? JSON_NULL;
  } catch {
    if (parse) return parse(text);
    throw new InvalidArgumentError(`must be ${what}.`);
  }
}

/** Sorts what was given into path, query and body, calls the operation and prints its answer. */
function runOperation(io: CliIo, definition: CommandDefinition, values: readonly unknown[]): Promise<number> {
  const given = values[definition.arguments.length] as Record<string, unknown>;
  const args = { path: {}, query: {}, body: {} } as Record<CommandOption['in'], Record<string, unknown>>;
  for (const [i, argument] of definition.arguments.entries()) args[argument.in][argument.name] = values[i];
  for (const option of definition.options) {
    // Own properties only: an option `--to-string` not given must not find Object.prototype's.
    const key = new Option(`--${option.flag}`).attributeName();
    const parsed = Object.hasOwn(given, key) ? given[key] : undefined;
    if (parsed === undefined) continue;
    const value = parsed === JSON_NULL ? null : parsed;
    const into = args[option.in];
    into[option.name] =
      option.member === undefined ? value : { ...(into[option.name] as object), [option.member]: value };
  }
  const json = given['json'] === true;
  return withClient(io, { json }, async (client) => {
    const answer = await callOperation(client, definition.call, args, { signal: io.interrupt });
    const text = json ? (answer === undefined ? '' : `${jsonForTerminal(answer)}\n`) : readable(answer, definition);
    await writeOut(io.stdout, text);
    return EXIT.ok;
  });
}

/**
 * An answer for people: an object as `key: value` lines (nested values as JSON), anything else as
 * one line, and that it was done for an answer without a body. What the server sent is shown,
 * never acted on.
 */
function readable(answer: unknown, definition: CommandDefinition): string {
  if (answer === undefined) return `${definition.summary}: done.\n`;
  const shown = (value: unknown) => forTerminal(typeof value === 'string' ? value : jsonForTerminal(value));
  const lines =
    typeof answer === 'object' && answer !== null && !Array.isArray(answer)
      ? Object.entries(answer).map(([key, value]) => `${forTerminal(key)}: ${shown(value)}`)
      : [shown(answer)];
  return `${lines.join('\n')}\n`;
}
