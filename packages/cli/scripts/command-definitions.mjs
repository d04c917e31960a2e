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
} from '@browser-cloud/openapi-document';
import { banner, jsonLiteral } from '@browser-cloud/tooling/generate-artifacts';

/** The folder this generator owns (scripts/generate.mjs deletes what it no longer writes there). */
export const OUTPUT_DIR = fileURLToPath(new URL('../src/generated/', import.meta.url));
const OUTPUT = `${OUTPUT_DIR}command-definitions.ts`;
const oneLine = (text = '') => text.replace(/\s+/g, ' ').trim();
const firstSentence = (text) => /^.*?[.!?](?=\s|$)/.exec(oneLine(text))?.[0] ?? oneLine(text);

/** How a value of `schema` is given: as the scalar it is, else as JSON. */
function valueType(schema) {
  const types = [schema.type].flat().filter((type) => type !== 'null');
  return types.length === 1 && ['string', 'integer', 'number', 'boolean'].includes(types[0]) ? types[0] : 'json';
}

/** The options of an input: one, or for a `oneOf` of one-property objects, one per member (`--proxy-id`, `--proxy-name`). */
function optionsOf({ name, in: location, schema }) {
  const flags = inputFlags(name, schema);
  if (flags[0].member !== undefined) {
    return flags.map(({ flag, member }, i) => {
      const m = schema.oneOf[i];
      const property = m.properties[member];
      const description = firstSentence(m.description ?? property.description);
      return { flag, in: location, name, member, type: valueType(property), description };
    });
  }
  const members = schema.oneOf ?? [];
  const type = valueType(schema);
  // The object schema a JSON value is of, by title: a parser of a shorter syntax is keyed by it.
  const titled = [schema, ...(schema.anyOf ?? []), ...members].find((s) => s.title)?.title;
  const option = { flag: flags[0].flag, in: location, name, type, description: firstSentence(schema.description) };
  if (type === 'string' && schema.enum) option.choices = schema.enum;
  if (type === 'json' && titled) option.schema = titled;
  return [option];
}

const quote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

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
    const words = ['browser-cloud', ...command];
    for (const input of positionals) words.push(quote(String(exampleOf(input) ?? `<${input.flag}>`)));
    for (const option of options) {
      const value = option.member === undefined ? exampleOf(option) : exampleOf(option)?.[option.member];
      if (value === undefined) continue;
      if (option.type === 'boolean') words.push(`--${value ? '' : 'no-'}${option.flag}`);
      else words.push(`--${option.flag}`, quote(option.type === 'json' ? JSON.stringify(value) : String(value)));
    }
    return `  $ ${words.join(' ')}`;
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

/** A command per operation of the document, but for its event streams, which special commands cover. */
export function commandDefinitions(document) {
  assertGeneratable(document);
  return [...operations(document)].filter((o) => !o.streaming).map((o) => commandDefinition(document, o));
}

/** @param documentPath the document to generate from; the repository's by default. */
export async function generateArtifacts(documentPath) {
  const commands = jsonLiteral(commandDefinitions(loadOpenApiDocument(documentPath)));
  const contents = `${banner('packages/cli/scripts/command-definitions.mjs')}
import type { CommandDefinition } from '../command-definition.js';

export const COMMAND_DEFINITIONS = ${commands} satisfies CommandDefinition[];
`;
  return [{ path: OUTPUT, contents }];
}
