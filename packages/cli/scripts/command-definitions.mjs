// The CLI's commands, generated from the OpenAPI document (see the README): a command per
// operation but its event streams, which have special commands (`logs tail`). `npm run generate`
// writes them; `npm run lint` is the drift check.
import { fileURLToPath } from 'node:url';
import {
  assertGeneratable,
  inlineRefs,
  inputFlags,
  kebabCase,
  loadOpenApiDocument,
  operationSignature,
  operations,
  schemaTypes,
} from '@browser-cloud/openapi-document';
import { banner, jsonLiteral } from '@browser-cloud/tooling/generate-artifacts';

/** The folder this generator owns (scripts/generate.mjs deletes what it no longer writes there). */
export const OUTPUT_DIR = fileURLToPath(new URL('../src/generated/', import.meta.url));
const OUTPUT = `${OUTPUT_DIR}command-definitions.ts`;
const oneLine = (text = '') => text.replace(/\s+/g, ' ').trim();
const firstSentence = (text) => /^.*?[.!?](?=\s|$)/.exec(oneLine(text))?.[0] ?? oneLine(text);

const SCALARS = ['string', 'integer', 'number', 'boolean'];

/**
 * How a value of `schema` is given: as the scalar it is (its types read as the server reads a
 * query value's: an enum's from its values, an `allOf`'s from its members), else as JSON.
 */
function valueType(schema) {
  const types = schemaTypes(schema).filter((type) => type !== 'null');
  return types.length === 1 && SCALARS.includes(types[0]) ? types[0] : 'json';
}

/**
 * How a command line gives a value of `schema`: its `type`, the `choices` of an enum, and for an
 * array of scalars, `array` with the items' type and choices (a repeatable option, one item each).
 */
function inputType(schema) {
  const items = [schema.type].flat().includes('array') && schema.items;
  const of = items && valueType(items) !== 'json' ? items : schema;
  const type = valueType(of);
  // JSON of a schema that allows a string (`oneOf: [string, integer]`): plain text is that string.
  const text = type === 'json' && schemaTypes(of).includes('string');
  return {
    type,
    ...(of !== schema ? { array: true } : {}),
    ...(text ? { text: true } : {}),
    ...(type !== 'json' && Array.isArray(of.enum) ? { choices: of.enum.filter((value) => value !== null) } : {}),
  };
}

/** The options of an input: one, or for a `oneOf` of one-property objects, one per member (`--proxy-id`, `--proxy-name`). */
function optionsOf({ name, in: location, schema }) {
  const flags = inputFlags(name, schema);
  if (flags[0].member !== undefined) {
    return flags.map(({ flag, member }, i) => {
      const m = schema.oneOf[i];
      const property = m.properties[member];
      const description = firstSentence(m.description ?? property.description);
      return { flag, in: location, name, member, ...inputType(property), description };
    });
  }
  const members = schema.oneOf ?? [];
  const typed = inputType(schema);
  // The object schema a JSON value is of, by title: a parser of a shorter syntax is keyed by it.
  const titled = [schema, ...(schema.anyOf ?? []), ...members].find((s) => s.title)?.title;
  const option = { flag: flags[0].flag, in: location, name, ...typed, description: firstSentence(schema.description) };
  if (typed.type === 'json' && titled) option.schema = titled;
  return [option];
}

const quote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/**
 * The words after the command of a command line that gives `valueFor(input)` to each input of a
 * command (its positionals, then its options; an option without a value is left out), unquoted.
 */
export function commandWords({ arguments: positionals, options }, valueFor) {
  const words = [];
  for (const input of positionals) {
    const value = valueFor(input);
    words.push(value === undefined ? `<${input.flag}>` : input.type === 'json' ? JSON.stringify(value) : String(value));
  }
  for (const option of options) {
    const value = option.member === undefined ? valueFor(option) : valueFor(option)?.[option.member];
    if (value === undefined) continue;
    if (option.type === 'boolean' && !option.array) words.push(`--${value ? '' : 'no-'}${option.flag}`);
    else {
      for (const item of option.array && Array.isArray(value) ? value : [value]) {
        words.push(`--${option.flag}`, option.type === 'json' ? JSON.stringify(item) : String(item));
      }
    }
  }
  return words;
}

/** A command line per example of the request body (or one), with the parameters' examples. */
function examplesOf(document, operation, command, positionals, options) {
  const media = operation.body && operation.requestBody.content[operation.body.mediaType].media;
  const bodies = media?.examples
    ? Object.values(media.examples).map((example) => inlineRefs(document, example).value)
    : [media?.example ?? {}];
  const lines = bodies.map((body) => {
    const exampleOf = (input) => {
      if (input.in === 'body') return body?.[input.name];
      const parameter = operation.parameters.find((p) => p.name === input.name && p.in === input.in);
      return parameter?.parameter.example ?? parameter?.schema?.schema.example;
    };
    const words = commandWords({ arguments: positionals, options }, exampleOf);
    return `  $ ${['browser-cloud', ...command, ...words.map((word) => (/^<.*>$/.test(word) ? word : quote(word)))].join(' ')}`;
  });
  return [...new Set(lines)];
}

function commandDefinition(document, operation) {
  const { arguments: inputs, call } = operationSignature(document, operation);
  const command = operation.names.command;
  // Path parameters, then required scalar body properties (`profiles rename <id-or-name> <name>`).
  const positional = (input) =>
    input.in === 'path' ||
    (input.in === 'body' && input.required && !['json', 'boolean'].includes(valueType(input.schema)));
  const positionals = inputs.filter(positional).map(({ name, in: location, schema }) => ({
    name,
    in: location,
    flag: kebabCase(name),
    ...inputType(schema),
    description: firstSentence(schema.description),
  }));
  // Two inputs taking one option, or an input taking the CLI's own, the model refuses (generationProblems).
  const options = inputs.filter((input) => !positional(input)).flatMap(optionsOf);
  const { summary = operation.operationId, description = '' } = operation.operation;
  const examples = examplesOf(document, operation, command, positionals, options);
  const tag = document.tags?.find((t) => t.name === operation.operation.tags?.[0]);
  return {
    operationId: operation.operationId,
    command,
    group: firstSentence(tag?.description ?? tag?.name),
    summary,
    help: `\n${description.trim()}\n\nExamples:\n${examples.join('\n')}`,
    call,
    arguments: positionals,
    options,
  };
}

/**
 * The options of each event stream's inputs but its path, by operationId, for the special command
 * that reads it (`logs tail`): a query parameter added to the stream becomes an option there.
 */
export function streamOptions(document) {
  const streams = [...operations(document)].filter((o) => o.streaming);
  return Object.fromEntries(
    streams.map((operation) => {
      const { arguments: inputs } = operationSignature(document, operation);
      return [operation.operationId, inputs.filter((input) => input.in !== 'path').flatMap(optionsOf)];
    }),
  );
}

/** A command per operation of the document, but for its event streams, which special commands cover. */
export function commandDefinitions(document) {
  assertGeneratable(document);
  return [...operations(document)].filter((o) => !o.streaming).map((o) => commandDefinition(document, o));
}

/** @param documentPath the document to generate from; the repository's by default. */
export async function generateArtifacts(documentPath) {
  const document = loadOpenApiDocument(documentPath);
  const commands = jsonLiteral(commandDefinitions(document));
  const streams = jsonLiteral(streamOptions(document));
  const contents = `${banner('packages/cli/scripts/command-definitions.mjs')}
import type { CommandDefinition, CommandOption } from '../command-definition.js';

export const COMMAND_DEFINITIONS = ${commands} satisfies CommandDefinition[];

/** The options of each event stream's query, by operationId, for the command that reads it (\`logs tail\`). */
export const STREAM_OPTIONS = ${streams} satisfies Record<string, CommandOption[]>;
`;
  return [{ path: OUTPUT, contents }];
}
