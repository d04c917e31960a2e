import { callOperation } from '@browser-cloud/client';
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import { type CliIo, writeOut } from './cli-io.js';
import type { CommandArgument, CommandDefinition, CommandOption } from './command-definition.js';
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
    const command = groupOf(program, definition.command.slice(0, -1), definition.group)
      .command(definition.command.at(-1)!)
      // Text from the document is shown, never acted on (an ESC in a summary reaches no terminal).
      .description(forTerminal(definition.summary))
      .addHelpText('after', forTerminal(definition.help, { lines: true }));
    for (const argument of definition.arguments) command.addArgument(argumentOf(argument));
    for (const option of optionsOf(definition.options)) command.addOption(option);
    command
      .option('--json', 'print the answer (or the error) as JSON')
      .action((...values: unknown[]) => done(runOperation(io, definition, values)));
  }
}

/** The command of these group names under `program` (`auth connections`), made when missing, `description` on the ones made. */
export function groupOf(program: Command, names: readonly string[], description: string): Command {
  let parent = program;
  for (const name of names) {
    parent =
      parent.commands.find((command) => command.name() === name) ??
      parent.command(name).description(forTerminal(description));
  }
  return parent;
}

/** The text given for an input read as its type: a number, a boolean, JSON; one of its choices. */
function parserOf(input: CommandArgument): (text: string) => unknown {
  const parser = 'schema' in input && input.schema !== undefined ? SCHEMA_PARSERS[input.schema as string] : undefined;
  return (text) => {
    if (input.choices && !input.choices.some((choice) => String(choice) === text)) {
      throw new InvalidArgumentError(`must be one of ${input.choices.map((choice) => String(choice)).join(', ')}.`);
    }
    switch (input.type) {
      case 'integer':
        if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
          throw new InvalidArgumentError('must be an integer.');
        }
        return Number(text);
      case 'number':
        if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) throw new InvalidArgumentError('must be a number.');
        return Number(text);
      case 'boolean':
        if (text !== 'true' && text !== 'false') throw new InvalidArgumentError('must be true or false.');
        return text === 'true';
      case 'json':
        return parseJson(text, parser?.parse ?? (input.text ? (given) => given : undefined));
      default:
        return text;
    }
  };
}

function argumentOf(input: CommandArgument): Argument {
  const made = new Argument(`<${input.flag}>`, forTerminal(input.description)).argParser(parserOf(input));
  if (input.choices) made.argChoices = input.choices.map((choice) => forTerminal(String(choice)));
  return made;
}

/**
 * The options of an operation's inputs: a boolean a flag (`--x`, and `--no-x` unless another
 * input is named so), an array repeatable, each value read by its type.
 */
export function optionsOf(inputs: readonly CommandOption[]): Option[] {
  const flags = new Set(inputs.map((input) => input.flag));
  return inputs.flatMap((input) => {
    const flag = `--${input.flag}`;
    const description = forTerminal(input.description);
    if (input.type === 'boolean' && !input.array) {
      const made = [plain(new Option(flag, description))];
      if (!flags.has(`no-${input.flag}`)) made.push(new Option(`--no-${input.flag}`, `sends ${flag} as false`));
      return made;
    }
    const parser = input.schema === undefined ? undefined : SCHEMA_PARSERS[input.schema];
    const value =
      input.type === 'json' ? (parser ? 'spec' : input.text ? 'json|text' : 'json') : (input.member ?? input.flag);
    const more = `${parser ? ` ${parser.syntax}.` : ''}${input.array ? ' Repeat it for each item.' : ''}`;
    const made = plain(new Option(`${flag} <${value}>`, `${description}${more}`));
    const parse = parserOf(input);
    made.argParser((text: string, previous: unknown) =>
      input.array ? [...((previous as unknown[] | undefined) ?? []), parse(text)] : parse(text),
    );
    if (input.choices) made.argChoices = input.choices.map((choice) => forTerminal(String(choice)));
    return [made];
  });
}

/**
 * `option` as the document's name says, not as Commander reads a name starting with `no-`: an
 * input `no_x` is an option of its own, not the negation of `x`.
 */
function plain(option: Option): Option {
  option.negate = false;
  return option;
}

/** Commander takes a parsed `null` for no value: it stands for JSON's null until the body is made. */
const JSON_NULL = Symbol('null');

function parseJson(text: string, parse: ((text: string) => unknown) | undefined): unknown {
  try {
    return JSON.parse(text) ?? JSON_NULL;
  } catch {
    if (parse) return parse(text);
    throw new InvalidArgumentError('must be JSON.');
  }
}

/**
 * The values given for `inputs`, sorted into path, query, header and body (a `oneOf` member into
 * its object). Only options given count: an input named like an Object.prototype member
 * (`to_string`) finds nothing when it is not given.
 */
export function givenValues(inputs: readonly CommandOption[], given: Readonly<Record<string, unknown>>) {
  const args = { path: {}, query: {}, header: {}, body: {} } as Record<CommandOption['in'], Record<string, unknown>>;
  for (const input of inputs) {
    const key = plain(new Option(`--${input.flag}`)).attributeName();
    const parsed = Object.hasOwn(given, key) ? given[key] : undefined;
    if (parsed === undefined) continue;
    const value = parsed === JSON_NULL ? null : parsed;
    const into = args[input.in];
    const before = Object.hasOwn(into, input.name) ? (into[input.name] as object) : {};
    define(into, input.name, input.member === undefined ? value : define({ ...before }, input.member, value));
  }
  return args;
}

/** Sets `name` as an own property, whatever it is named (`__proto__` included). */
function define<T extends object>(object: T, name: string, value: unknown): T {
  return Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Sorts what was given into path, query, header and body, calls the operation and prints its answer. */
function runOperation(io: CliIo, definition: CommandDefinition, values: readonly unknown[]): Promise<number> {
  // Commander's object of the options given inherits Object.prototype: read with own-property checks.
  const given = values[definition.arguments.length] as Record<string, unknown>;
  const args = givenValues(definition.options, given);
  for (const [i, argument] of definition.arguments.entries()) define(args[argument.in], argument.name, values[i]);
  const json = Object.hasOwn(given, 'json') && given['json'] === true;
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
  if (answer === undefined) return `${forTerminal(definition.summary)}: done.\n`;
  const shown = (value: unknown) => forTerminal(typeof value === 'string' ? value : jsonForTerminal(value));
  const lines =
    typeof answer === 'object' && answer !== null && !Array.isArray(answer)
      ? Object.entries(answer).map(([key, value]) => `${forTerminal(key)}: ${shown(value)}`)
      : [shown(answer)];
  return `${lines.join('\n')}\n`;
}
