// Whether every generator can write the document: the names they derive (identifiers.ts, the
// operations' `names`) are each safe where they are used and unique in every namespace they share
// with each other and with the hand-written code beside them. The generators call it before
// writing; the lint's `conventions/generatable` rule reports the same problems at their lines.
import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import { isIdentifier, isReservedWord, kebabCase, pascalCase, safeIdentifier } from './identifiers.js';
import { formatPointer } from './json-pointer.js';
import { operationSignature } from './operation-signature.js';
import { inlineRefs } from './resolve-ref.js';
import { type Operation, operations } from './operations.js';
import { queryRules, queryUnionName } from './query-rules.js';
import { resources as resourceModel } from './resources.js';
import { telemetryCategories } from './telemetry-categories.js';
import { DATA_KEYWORDS } from './tolerant-schema.js';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;

/**
 * The names MCP hosts accept, as they publish them: a tool's name (the Claude API's and OpenAI's
 * function names) and an argument's, one property of its input schema (the Claude API's
 * `input_schema.properties`). The lint refuses a document that would make another; the MCP
 * package's host-rule check holds its tool definitions to the same rules.
 */
export const MCP_NAME_RULES = {
  tool: /^[a-zA-Z0-9_-]{1,64}$/,
  argument: /^[a-zA-Z0-9_.-]{1,64}$/,
} as const;

export interface GenerationProblem {
  readonly message: string;
  /** Where the problem is: the JSON pointer of the name that cannot be generated. */
  readonly pointer: string;
}

/**
 * Names the hand-written code takes in each namespace the generated code shares. Each package's
 * tests check its list against its code (a name added there and not here fails them).
 */
export const HAND_WRITTEN_NAMES = {
  /** What `@browser-cloud/client` exports beside the generated code (src/index.ts, @browser-cloud/api-types). */
  clientExports: [
    ...['createClient', 'createConnection', 'BrowserCloudClient', 'ClientOptions', 'Connection', 'RequestOptions'],
    ...['callOperation', 'OperationCall', 'MAX_RESPONSE_BODY_BYTES', 'FetchLike', 'EventStream', 'StreamOptions'],
    ...['StreamStateChange', 'BASE_URL_ENV', 'DEFAULT_MAX_RETRIES', 'DEFAULT_TIMEOUT_MS', 'TOKEN_ENV'],
    ...['BrowserCloudError', 'ValidationError', 'InvalidResponseError', 'APIError', 'BadRequestError'],
    ...['AuthenticationError', 'PermissionDeniedError', 'NotFoundError', 'ConflictError', 'RateLimitError'],
    ...['InternalServerError', 'APIConnectionError', 'APIConnectionTimeoutError', 'APIUserAbortError'],
    ...['ValidationIssue', 'APIErrorInit', 'resolveTelemetry', 'TelemetryContext', 'DEFAULT_TELEMETRY_CATEGORIES'],
    ...['TELEMETRY_CATEGORIES', 'LogStream', 'BrowserLogsStreamOptions', 'BrowserLogs', 'withQuery'],
    'refusedTokenHint',
    // @browser-cloud/api-types (src/index.ts), and what openapi-typescript writes beside the components.
    ...['paths', 'operations', 'components', 'webhooks', '$defs', 'ErrorBody', 'Validator', 'ErrorObject'],
    ...['toIssues', 'IssueNaming', 'InvalidTelemetryConfigError', 'TelemetryCategory', 'FlowType'],
    'DOCUMENT_VERSION',
  ],
  /** What the generated client modules import besides types and validators (packages/client/src). */
  clientModule: [
    ...['Connection', 'contextOf', 'EventStream', 'openEventStream', 'StreamOptions', 'execute'],
    ...['goneOnceApplied', 'RequestOptions', 'withQuery', 'pathSegment', 'operations', 'components'],
    ...['headerValues', 'sendable', 'styledPathSegment'],
  ],
  /** The CLI's own commands and the options of the program (packages/cli/src/program.ts). */
  cliCommands: ['logs tail', 'help'],
  /**
   * Options every command has, which no input of an operation may take (`--version` is the
   * program's, before a command: after one, an input named `version` is the command's own).
   */
  cliOptions: ['json', 'help'],
  /** The MCP server's paged tail of an event stream (packages/mcp/scripts/tool-definitions.mjs): its own arguments, and what each event holds. */
  mcpTail: {
    arguments: ['max_events', 'max_bytes', 'wait_ms', 'cursor'],
    eventProperties: ['timestamp', 'message'],
  },
} as const;

/** The name the generated types give a component schema: itself when it is an identifier, else pascal-cased. */
export function componentTypeName(name: string): string {
  if (isIdentifier(name) && !name.startsWith('$') && !isReservedWord(name)) return name;
  const type = pascalCase(name);
  return /^\p{N}/u.test(type) || isReservedWord(type) ? `_${type}` : type;
}

/** The interface of `client.<path…>`: `AuthConnections`; `Resources` for the client itself. */
export const resourceInterfaceName = (path: readonly string[]): string =>
  path.length === 0 ? 'Resources' : safeIdentifier(path.map((segment) => pascalCase(segment)).join(''));

/** The client's function that makes a top-level resource: `profilesResource(connection)`. */
export const resourceFactoryName = (resource: string): string => `${resource.replace(/_$/, '')}Resource`;

/** The client's module of a top-level resource, without extension: `profiles`, `auth`. */
export const resourceFileName = (resource: string): string => kebabCase(resource) || resource;

/**
 * The CLI options an input takes: one, or for a `oneOf` of objects of one property each, each
 * named differently, one per member (`proxy` → `--proxy-id`, `--proxy-name`). Members that share
 * their property (`{ kind: 'cat' }` or `{ kind: 'dog' }`) are one option, given as JSON.
 */
export function inputFlags(
  name: string,
  schema: Readonly<Record<string, unknown>>,
): { flag: string; member?: string }[] {
  const members = (schema['oneOf'] ?? []) as { type?: unknown; properties?: Record<string, unknown> }[];
  const single = members.flatMap((m) => (m.type === 'object' ? Object.keys(m.properties ?? {}) : []));
  const oneEach = members.every((m) => m.type === 'object' && Object.keys(m.properties ?? {}).length === 1);
  if (members.length > 0 && oneEach && new Set(single).size === members.length) {
    return members.map((m) => {
      const member = Object.keys(m.properties!)[0]!;
      return { flag: kebabCase(`${name}-${member}`), member };
    });
  }
  return [{ flag: kebabCase(name) }];
}

/** Names in one namespace, each with where it comes from: a second one is a problem naming both. */
class Namespace {
  private readonly taken = new Map<string, string>();
  constructor(
    private readonly what: string,
    private readonly problems: GenerationProblem[],
    fold: (name: string) => string = (name) => name,
  ) {
    this.fold = fold;
  }
  private readonly fold: (name: string) => string;

  reserve(names: readonly string[], place: string): this {
    for (const name of names) this.taken.set(this.fold(name), place);
    return this;
  }

  add(name: string, place: string, pointer: string): void {
    const key = this.fold(name);
    const other = this.taken.get(key);
    if (other === undefined) {
      this.taken.set(key, place);
      return;
    }
    this.problems.push({ message: `${place} makes the ${this.what} ${name}, which ${other} makes too`, pointer });
  }
}

/** Every reason the generators cannot write `document`, empty when they can. */
export function generationProblems(document: OpenApiDocument): GenerationProblem[] {
  const problems: GenerationProblem[] = [];
  let all: Operation[];
  try {
    all = [...operations(document)];
  } catch (error) {
    if (!(error instanceof OpenApiDocumentError)) throw error;
    return [{ message: error.message, pointer: error.pointer ?? '' }];
  }
  // The models read beside the operations: the resources the sandbox keeps items by (an `x-unique`
  // that is not a boolean) and the telemetry categories api-types lists (an `x-default-enabled`).
  for (const model of [resourceModel, telemetryCategories]) {
    try {
      model(document);
    } catch (error) {
      if (!(error instanceof OpenApiDocumentError)) throw error;
      problems.push({ message: error.message, pointer: error.pointer ?? '' });
    }
  }
  const handWritten = (where: string) => `the hand-written ${where}`;
  const exports = new Namespace('client export', problems).reserve(
    HAND_WRITTEN_NAMES.clientExports,
    handWritten('code of @browser-cloud/client or @browser-cloud/api-types'),
  );
  const module = new Namespace('name in the generated client', problems).reserve(
    HAND_WRITTEN_NAMES.clientModule,
    handWritten('client code it imports (packages/client/src)'),
  );
  const validators = new Namespace('validator', problems);
  const tools = new Namespace('MCP tool', problems);
  const commands = new Namespace('CLI command', problems).reserve(
    HAND_WRITTEN_NAMES.cliCommands,
    handWritten('CLI (packages/cli/src/program.ts)'),
  );
  // Files of one folder: a case-insensitive file system makes `A` and `a` one file.
  const files = new Namespace('file', problems, (name) => name.toLowerCase());

  for (const [name] of Object.entries(document.components?.schemas ?? {})) {
    const pointer = formatPointer(['components', 'schemas', name]);
    const type = componentTypeName(name);
    const place = `the component ${name} (${pointer})`;
    if (type === '') {
      problems.push({ message: `${place} has no letter or digit to name a type`, pointer });
      continue;
    }
    exports.add(type, place, pointer);
    module.add(type, place, pointer);
    validators.add(`validate${type}`, place, pointer);
    validators.add(`validateReceived${type}`, place, pointer);
  }
  // The union type the rules of a query component make (`LogStreamQueryBySource`), a type like a component's.
  const unions = new Set<string>();
  for (const operation of all) {
    const component = /^\/components\/schemas\/([^/]+)$/.exec(operation.query?.pointer ?? '')?.[1];
    const schema = component === undefined ? undefined : document.components?.schemas?.[component];
    const rules = schema && queryRules(schema as Record<string, unknown>);
    if (!rules) continue;
    const union = queryUnionName(componentTypeName(component!), rules);
    if (unions.has(union)) continue;
    unions.add(union);
    const pointer = formatPointer(['components', 'schemas', component!]);
    const place = `the rules of the query component ${component} (${pointer})`;
    exports.add(union, place, pointer);
    module.add(union, place, pointer);
  }

  // The interfaces and factories of createClient's resources (packages/client/scripts).
  exports.reserve(['Resources', 'resources'], 'the generated root of createClient');
  const resources = new Map<string, string>();
  for (const operation of all) {
    const { names, sdk, pointer } = operation;
    const at = `${pointer}/operationId`;
    const place = `the operation ${operation.operationId} (${pointer})`;
    exports.add(names.function, place, at);
    module.add(names.function, place, at);
    for (const part of ['Path', 'Body', 'Query']) validators.add(`validate${names.type}${part}`, place, at);
    files.add(names.file, place, at);
    for (let depth = 1; depth <= sdk.resource.length; depth++) {
      const path = sdk.resource.slice(0, depth);
      const type = resourceInterfaceName(path);
      const key = path.join('.');
      if (resources.has(type) && resources.get(type) !== key) {
        problems.push({
          message: `${place} makes client.${key}, whose interface ${type} client.${resources.get(type)} makes too`,
          pointer: formatPointer(['paths', operation.path]),
        });
      } else if (!resources.has(type)) {
        resources.set(type, key);
        const where = formatPointer(['paths', operation.path]);
        exports.add(type, `client.${key} (${where})`, where);
        if (depth === 1) {
          exports.add(resourceFactoryName(sdk.resource[0]!), `client.${key} (${where})`, where);
          module.add(resourceFactoryName(sdk.resource[0]!), `client.${key} (${where})`, where);
          files.add(resourceFileName(sdk.resource[0]!), `client.${key} (${where})`, where);
        }
      }
    }

    if (!MCP_NAME_RULES.tool.test(names.tool)) {
      problems.push({
        message: `${place} makes the MCP tool ${names.tool}, which hosts refuse: a tool name matches ${MCP_NAME_RULES.tool}`,
        pointer: at,
      });
    } else tools.add(names.tool, place, at);

    const success = operation.success;
    if (success?.mediaType && !operation.streaming && !JSON_MEDIA_TYPE.test(success.mediaType)) {
      problems.push({
        message: `${place} answers ${success.mediaType}: the generated client reads JSON answers and event streams only`,
        pointer: operation.responses[success.status]!.pointer,
      });
    }
    for (const cookie of operation.parameters.filter((p) => p.in === 'cookie')) {
      problems.push({
        message: `${place} has the cookie parameter ${cookie.name}, which no generated layer sends or checks (the API authenticates by bearer token): make it a header or query parameter`,
        pointer: cookie.pointer,
      });
    }
    // OpenAPI: a header parameter named Accept, Content-Type or Authorization "SHALL be ignored".
    for (const header of operation.parameters.filter(
      (p) => p.in === 'header' && /^(accept|content-type|authorization)$/i.test(p.name),
    )) {
      problems.push({
        message: `${place} has the header parameter ${header.name}, which OpenAPI says to ignore (the media types and the security scheme say what it carries): remove it`,
        pointer: header.pointer,
      });
    }
    let inputs: ReturnType<typeof operationSignature>['arguments'];
    try {
      inputs = operationSignature(document, operation).arguments;
    } catch (error) {
      if (!(error instanceof OpenApiDocumentError)) throw error;
      problems.push({ message: error.message, pointer: error.pointer ?? pointer });
      continue;
    }
    // A host refuses every request while one listed tool has such an argument (the Claude API checks
    // `input_schema.properties`), so one name would break the whole MCP server.
    for (const input of inputs.filter((i) => !MCP_NAME_RULES.argument.test(i.name))) {
      const parameter = operation.parameters.find((p) => p.name === input.name && p.in === input.in);
      problems.push({
        message: `the ${input.in} input ${input.name} of ${place} makes an argument of the MCP tool ${names.tool}, which hosts refuse: an argument name matches ${MCP_NAME_RULES.argument}`,
        pointer: parameter?.pointer ?? operation.body?.schema?.pointer ?? pointer,
      });
    }
    if (operation.streaming) {
      // The MCP server reads a stream as pages of log events (its tail tool), with arguments of its own.
      for (const input of inputs.filter((i) => HAND_WRITTEN_NAMES.mcpTail.arguments.includes(i.name as never))) {
        problems.push({
          message: `the ${input.in} input ${input.name} of ${place} takes an argument the MCP server's tail tool has itself`,
          pointer: at,
        });
      }
      const data = operation.success?.eventData;
      const properties = (data && (inlineRefs(document, data.schema) as { properties?: object }).properties) ?? {};
      const lacking = HAND_WRITTEN_NAMES.mcpTail.eventProperties.filter((name) => !Object.hasOwn(properties, name));
      if (lacking.length > 0) {
        problems.push({
          message: `the events of ${place} have no ${lacking.join(' or ')}: the MCP server's tail tool returns log events (x-sse-event-data with timestamp and message)`,
          pointer: data?.pointer ?? pointer,
        });
      }
      continue;
    }
    commands.add(names.command.join(' '), place, at);
    const options = new Namespace(`option of browser-cloud ${names.command.join(' ')}, --`, problems).reserve(
      HAND_WRITTEN_NAMES.cliOptions,
      handWritten('CLI (every command has it)'),
    );
    for (const input of inputs) {
      if (input.in === 'path') continue;
      for (const { flag } of inputFlags(input.name, input.schema)) {
        const where = `the ${input.in} input ${input.name} of ${place}`;
        if (flag === '') {
          problems.push({ message: `${where} has no letter or digit to name a CLI option`, pointer: at });
          continue;
        }
        // A boolean's `--no-x` is left out when another input takes it: no clash.
        options.add(flag, where, at);
      }
    }
  }
  // client.<resource…>.<verb> names one method, and no resource of others.
  const methods = new Namespace('client method', problems);
  for (const operation of all) {
    const path = [...operation.sdk.resource, operation.sdk.verb].join('.');
    const place = `the operation ${operation.operationId} (${operation.pointer})`;
    methods.add(path, place, `${operation.pointer}/operationId`);
    const parent = all.find((other) => `${other.sdk.resource.join('.')}.`.startsWith(`${path}.`));
    if (parent) {
      problems.push({
        message: `${place} makes the method client.${path}, which is also a resource of the operation ${parent.operationId} (${parent.pointer}): set x-sdk-verb`,
        pointer: `${operation.pointer}/operationId`,
      });
    }
  }
  // A command that is also a group of others: `a b` beside `a b c`.
  const paths = all.filter((o) => !o.streaming).map((o) => o.names.command.join(' '));
  for (const operation of all.filter((o) => !o.streaming)) {
    const path = operation.names.command.join(' ');
    const under = [...paths, ...HAND_WRITTEN_NAMES.cliCommands].find((other) => other.startsWith(`${path} `));
    if (under) {
      problems.push({
        message: `the operation ${operation.operationId} (${operation.pointer}) makes the CLI command ${path}, which is also the group of ${under}`,
        pointer: `${operation.pointer}/operationId`,
      });
    }
  }
  problems.push(...referenceProblems(document));
  return problems;
}

/**
 * References no generated layer can follow, where they are written: a `$dynamicRef`,
 * `$dynamicAnchor`, `$recursiveRef` or `$recursiveAnchor` (the validators, the types and the MCP
 * tools' inlined schemas do not track them), and a `$ref` into a component schema other than
 * through its `properties` (`#/components/schemas/Item/allOf/1/properties/name`): the types name
 * a referenced schema by indexing the component's type, which has no `allOf` or `items` to index.
 */
function referenceProblems(document: OpenApiDocument): GenerationProblem[] {
  const found: GenerationProblem[] = [];
  const walk = (node: unknown, tokens: string[]): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      const at = [...tokens, key];
      if (/^\$(dynamic|recursive)(Ref|Anchor)$/.test(key) && !Array.isArray(node)) {
        found.push({
          message: `${formatPointer(at)} is ${key}, which no generated layer follows: write the schema out or use $ref`,
          pointer: formatPointer(at),
        });
      }
      if (key === '$ref' && typeof value === 'string' && !Array.isArray(node)) {
        const inside = /^#\/components\/schemas\/[^/]+((?:\/.*)?)$/.exec(value)?.[1] ?? '';
        if (!/^(\/properties\/[^/]+)*$/.test(inside)) {
          found.push({
            message: `the $ref ${value} at ${formatPointer(tokens)} points inside a component schema other than through its properties, which the generated types cannot name: make the schema it points to a component of its own`,
            pointer: formatPointer(at),
          });
        }
      }
      if (!DATA_KEYWORDS.has(key)) walk(value, at);
    }
  };
  walk({ paths: document.paths, components: document.components }, []);
  return found;
}

/** @throws OpenApiDocumentError naming each problem, for a document the generators cannot write. */
export function assertGeneratable(document: OpenApiDocument): void {
  const problems = generationProblems(document);
  if (problems.length === 0) return;
  const [first] = problems;
  throw new OpenApiDocumentError(
    `the document cannot be generated:\n${problems.map((p) => `  - ${p.message}`).join('\n')}`,
    { pointer: first!.pointer },
  );
}
