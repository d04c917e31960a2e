// The MCP tools, generated from the OpenAPI document (see the README): a tool per operation, and
// the paged log tail for each event stream of log entries. `npm run generate` writes them;
// `npm run lint` is the drift check.
import { fileURLToPath } from 'node:url';
import {
  allowingUnknownProperties,
  assertGeneratable,
  HAND_WRITTEN_NAMES,
  inlineRefs,
  loadOpenApiDocument,
  MCP_NAME_RULES,
  operationSignature,
  operations,
} from '@browser-cloud/openapi-document';
import { banner, jsonLiteral } from '@browser-cloud/tooling/generate-artifacts';

/** With `follow`, how long the log tail waits after the last line that arrived before it returns. */
const FOLLOW_QUIET_MS = 500;

/** The folder this generator owns (scripts/generate.mjs deletes what it no longer writes there). */
export const OUTPUT_DIR = fileURLToPath(new URL('../src/generated/', import.meta.url));
const OUTPUT = `${OUTPUT_DIR}tool-definitions.ts`;

/**
 * The paged log tail: an event stream has no end a model could wait for, so the tool reads a
 * bounded page, described as its JSON result (not SSE and heartbeats), with its own bounds.
 */
export const TAIL = {
  description: [
    'Reads log lines and returns them as JSON: `{ events: [{ id, timestamp, message }], cursor, stopped }`.',
    'This tool returns at most `max_events` log events (default 100) and at most `max_bytes` bytes of them, and',
    'returns within `wait_ms`. Pass the returned `cursor` to the next call to continue exactly after the last event',
    'returned: no event is skipped or repeated. `stopped` says why the call returned: `max_events`, `max_bytes`,',
    '`end_of_log` (every line so far was read; without `follow`), `quiet` (with `follow`: no new line for',
    `${FOLLOW_QUIET_MS} ms after the last one) or \`time_limit\`. With \`follow\`, the call waits up to \`wait_ms\` for new`,
    `lines and returns ${FOLLOW_QUIET_MS} ms after the last line that arrived.`,
  ].join(' '),
  arguments: {
    max_events: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 100,
      description: 'The most log events to return.',
    },
    max_bytes: {
      type: 'integer',
      minimum: 1024,
      maximum: 1048576,
      default: 65536,
      description:
        'The most bytes of log events (as JSON) to return. A single event larger than this is returned truncated.',
    },
    wait_ms: {
      type: 'integer',
      minimum: 100,
      maximum: 30000,
      default: 10000,
      description:
        'The longest time, in milliseconds, this call reads the log; with `follow`, how long it waits for new lines.',
    },
    cursor: {
      type: 'string',
      maxLength: 1024,
      pattern: '^[^\\r\\n\\u0000]*$',
      description:
        'The `cursor` a previous call returned: continue after the last event it returned. Omit it to start at the beginning of the log.',
    },
  },
  /** What each returned event holds of the stream's event data (the model refuses a stream without them). */
  eventProperties: HAND_WRITTEN_NAMES.mcpTail.eventProperties,
};

/** An object schema of these properties, and no other. */
const closed = (properties, required) => ({ type: 'object', properties, required, additionalProperties: false });

function toolDefinition(document, operation) {
  const { arguments: args, call } = operationSignature(document, operation);
  const tail = operation.streaming;
  const name = operation.names.tool;
  const locations = Object.fromEntries(args.map((a) => [a.name, a.in]));
  const properties = Object.fromEntries(args.map((a) => [a.name, a.schema]));
  for (const [argument, schema] of Object.entries(tail ? TAIL.arguments : {})) {
    if (Object.hasOwn(locations, argument))
      throw new Error(`${name}: "${argument}" is both an input of the operation and of the tool`);
    locations[argument] = 'tool';
    properties[argument] = schema;
  }
  const { summary = operation.operationId, description } = operation.operation;
  const conflict = operation.responses['409']?.response.description?.replace(/\s+/g, ' ').trim();
  const { repeatable, when } = operation.repeatability;
  const required = args.filter((a) => a.required).map((a) => a.name);
  return {
    name,
    operationId: operation.operationId,
    title: summary,
    description: [summary, tail ? TAIL.description : description?.trim()].filter(Boolean).join('\n\n'),
    // A plain object schema (see hostRuleViolations): rules the document states over several
    // arguments (LogStreamQuery's if/then) are said in the descriptions of the arguments they
    // require, and the client checks them before sending.
    inputSchema: compact(closed(properties, required)),
    ...(tail ? { answer: 'log-events', outputSchema: tailOutput(document, operation) } : answerOf(document, operation)),
    ...annotationsOf({
      readOnlyHint: operation.method === 'get' || operation.method === 'head',
      destructiveHint: ['delete', 'put', 'patch'].includes(operation.method),
      idempotentHint: repeatable && Object.keys(when).length === 0,
    }),
    conflictHint: conflict
      ? `${conflict} Calling ${name} again with the same arguments meets the same conflict until that changes.`
      : '',
    call,
    locations,
  };
}

/**
 * What the operation does to the world, as its method and repeatability say, in the hints that
 * differ from MCP's defaults (`readOnlyHint: false`, `destructiveHint: true`, `idempotentHint:
 * false`, `openWorldHint: true`; the last two mean something only for a tool that writes): a host
 * reads a hint left out as its default, and every tool of a large API is sent to it whole.
 */
function annotationsOf({ readOnlyHint, destructiveHint, idempotentHint }) {
  const hints = readOnlyHint
    ? { readOnlyHint }
    : { ...(destructiveHint ? {} : { destructiveHint }), ...(idempotentHint ? { idempotentHint } : {}) };
  return Object.keys(hints).length > 0 ? { annotations: hints } : {};
}

/** The keywords whose value maps names (which may be `title`) to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];

/**
 * `schema` without what only repeats what a host has already: the `title` of a schema (the name
 * of the component it came from; the tool has its own title) and an empty `required`; nor the
 * document's extensions (`x-…`), which its generators read and no host does. A property named
 * `title` or `x-…` stays, and values (`enum`, `const`, `default`, `examples`) are left as written.
 */
export function compact(schema) {
  if (Array.isArray(schema)) return schema.map(compact);
  if (schema === null || typeof schema !== 'object') return schema;
  const kept = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'title' || key.startsWith('x-') || (key === 'required' && Array.isArray(value) && value.length === 0))
      continue;
    kept[key] = ['enum', 'const', 'default', 'examples'].includes(key)
      ? value
      : SCHEMA_MAPS.includes(key)
        ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, compact(property)]))
        : compact(value);
  }
  return kept;
}

/**
 * The success answer as the tool hands it on, read as the client reads it (unknown properties
 * allowed). MCP wants an object: another type is wrapped as `{ result }`, no body is `{}`.
 */
function answerOf(document, operation) {
  const schema = operation.success?.schema;
  if (schema === undefined) {
    const description = `Empty: the operation answers ${operation.success?.status ?? '2XX'} without a body.`;
    return { answer: 'none', outputSchema: { ...compact(closed({}, [])), description } };
  }
  const tolerant = compact(allowingUnknownProperties(inlineRefs(document, schema.schema)));
  if (tolerant.type === 'object') return { answer: 'object', outputSchema: tolerant };
  return { answer: 'value', outputSchema: { type: 'object', properties: { result: tolerant }, required: ['result'] } };
}

/** The tail's result: a page of events, each its SSE ID and the log entry's timestamp and message. */
function tailOutput(document, operation) {
  const data = compact(inlineRefs(document, operation.success?.eventData?.schema ?? {}));
  const event = Object.fromEntries(TAIL.eventProperties.map((name) => [name, data.properties?.[name]]));
  if (Object.values(event).includes(undefined)) {
    throw new Error(`${operation.operationId}: events without ${TAIL.eventProperties} need a special tool`);
  }
  const truncated = 'Present and true when the message was cut to fit `max_bytes`.';
  const cursor =
    'Pass this as `cursor` to continue where this call stopped (the SSE last event ID); `""` only while the log has given no ID: the next call starts at its beginning.';
  const events = closed(
    {
      id: { type: 'string', description: 'The event ID (the SSE `id`).' },
      ...event,
      truncated: { type: 'boolean', description: truncated },
    },
    ['id', ...TAIL.eventProperties],
  );
  const properties = {
    events: { type: 'array', items: events },
    cursor: { type: 'string', description: cursor },
    stopped: { type: 'string', enum: ['max_events', 'max_bytes', 'end_of_log', 'quiet', 'time_limit'] },
  };
  return closed(properties, ['events', 'cursor', 'stopped']);
}

/**
 * The rules `tool` breaks of what hosts accept, as they publish it; empty when all accept it. The
 * Claude API ("Tool use", `input_schema`) refuses `oneOf`, `allOf` or `anyOf` at the top level of
 * an input schema, which must be `type: "object"`, and Claude Code drops such an MCP tool
 * silently, a top-level `allOf` of `if/then` included; OpenAI's function calling ("Structured
 * Outputs", supported schemas) wants an object root, not an `anyOf`, and leaves composition,
 * conditionals, `dependent*` and `patternProperties` out. Both take names of
 * `MCP_NAME_RULES.tool`, the Claude API input properties of `MCP_NAME_RULES.argument` (one
 * property past it refuses every request while the tool is listed), and nested keywords inside a
 * property; a `$ref` (with nothing to resolve it against) is refused anywhere. The MCP SDK's own client accepts any schema.
 */
export function hostRuleViolations(tool) {
  const violations = [];
  if (!MCP_NAME_RULES.tool.test(tool.name)) violations.push(`name ${tool.name} does not match ${MCP_NAME_RULES.tool}`);
  const input = tool.inputSchema;
  if (input.type !== 'object') violations.push('inputSchema: type is not "object"');
  if (typeof input.properties !== 'object') violations.push('inputSchema: no properties');
  for (const key of Object.keys(input.properties ?? {}))
    if (!MCP_NAME_RULES.argument.test(key))
      violations.push(`inputSchema: the property ${key} does not match ${MCP_NAME_RULES.argument}`);
  for (const keyword of NOT_AT_TOP_LEVEL)
    if (keyword in input) violations.push(`inputSchema: ${keyword} at the top level`);
  const walk = (node, path) => {
    if (typeof node !== 'object' || node === null) return;
    if (!Array.isArray(node) && '$ref' in node) violations.push(`${path}: $ref`);
    for (const [key, value] of Object.entries(node)) {
      // Values, not schemas.
      if (!['enum', 'const', 'default', 'examples'].includes(key) || path.endsWith('/properties'))
        walk(value, `${path}/${key}`);
    }
  };
  walk(input, '#');
  return violations;
}

const NOT_AT_TOP_LEVEL = [
  ...['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', '$ref', 'enum', 'const'],
  ...['dependentRequired', 'dependentSchemas', 'patternProperties'],
];

/**
 * Every tool of the document, by name.
 * @throws Error for a tool that some host would refuse (or drop silently), or a name taken twice.
 */
export function toolDefinitions(document) {
  assertGeneratable(document);
  // Keyed by name, whatever the name: `constructor` is a tool like another, not Object's.
  const tools = new Map();
  for (const operation of operations(document)) {
    const tool = toolDefinition(document, operation);
    const violations = hostRuleViolations(tool);
    if (violations.length > 0) throw new Error(`${tool.name} breaks what hosts accept: ${violations.join('; ')}`);
    const other = tools.get(tool.name);
    if (other)
      throw new Error(`the operations ${other.operationId} and ${tool.operationId} both make the tool ${tool.name}`);
    tools.set(tool.name, tool);
  }
  return Object.fromEntries(tools);
}

/** @param documentPath the document to generate from; the repository's by default. */
export async function generateArtifacts(documentPath) {
  const tools = jsonLiteral(toolDefinitions(loadOpenApiDocument(documentPath)));
  const contents = `${banner('packages/mcp/scripts/tool-definitions.mjs')}
import type { ToolDefinition } from '../tool-definition.js';

/** With \`follow\`, how long the log tail waits after the last line that arrived before it returns. */
export const FOLLOW_QUIET_MS = ${FOLLOW_QUIET_MS};

export const TOOL_DEFINITIONS = ${tools} satisfies Record<string, ToolDefinition>;
`;
  return [{ path: OUTPUT, contents }];
}
