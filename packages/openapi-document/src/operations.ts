import { OpenApiDocumentError } from './document-error.js';
import type {
  HeaderObject,
  JsonSchema,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
} from './document-types.js';
import {
  camelCase,
  kebabCase,
  pascalCase,
  safeIdentifier,
  safeProperty,
  singular,
  snakeCase,
  words,
} from './identifiers.js';
import { appendPointer, escapePointerToken, formatPointer, parsePointer } from './json-pointer.js';
import { resolveNode } from './resolve-ref.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * A schema and where it is written: `schema` has its own `$ref` followed (not those inside it);
 * `pointer` is where the operation names it, so that a validator of `ajvRef(pointer)` checks the
 * document's schema itself. Use `inlineRefs` for a self-contained copy.
 */
export interface SchemaAt {
  readonly schema: JsonSchema;
  readonly pointer: string;
}

export interface OperationParameter {
  readonly name: string;
  readonly in: ParameterObject['in'];
  /** For a path parameter, the static path segment before it (`profiles` for `/profiles/{id_or_name}`). */
  readonly collection: string | undefined;
  /** For a path parameter, what its value addresses: the collection's singular (`profile`), else `resource`. */
  readonly addresses: string | undefined;
  /** Path parameters are always required (OpenAPI says so even when `required` is omitted). */
  readonly required: boolean;
  /** Where the Parameter Object lives, a `$ref` followed. */
  readonly pointer: string;
  readonly parameter: ParameterObject;
  /** `undefined` for a parameter described by `content` instead of `schema`. */
  readonly schema: SchemaAt | undefined;
  /**
   * How its value is written in the request: the Parameter Object's `style` and `explode`, else
   * OpenAPI's defaults (`form` and exploded for a query, `simple` for a path or a header). Arrays
   * and objects are written as this says (`colors=red&colors=blue`, `colors=red,blue` unexploded).
   */
  readonly serialization: ParameterSerialization;
}

/**
 * The styles of a parameter by where it goes, the first its default: OpenAPI 3.1's, less a path's
 * `label` and `matrix`, which no layer here writes or reads (the model refuses them, naming the place).
 */
export const PARAMETER_STYLES = {
  path: ['simple'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
} as const;

export type ParameterStyle = (typeof PARAMETER_STYLES)[keyof typeof PARAMETER_STYLES][number];

export interface ParameterSerialization {
  readonly style: ParameterStyle;
  readonly explode: boolean;
}

export interface OperationMedia {
  readonly mediaType: string;
  readonly pointer: string;
  /** The Media Type Object, for its `example`/`examples`. */
  readonly media: MediaTypeObject;
  readonly schema: SchemaAt | undefined;
}

export interface OperationRequestBody {
  readonly required: boolean;
  readonly pointer: string;
  readonly content: Readonly<Record<string, OperationMedia>>;
}

export interface OperationHeader {
  readonly name: string;
  readonly required: boolean;
  readonly pointer: string;
  readonly schema: SchemaAt | undefined;
}

export interface OperationResponse {
  /** As the document keys it: `200`, `4XX` or `default`. */
  readonly status: string;
  readonly pointer: string;
  readonly response: ResponseObject;
  /** Empty for a response without a body. */
  readonly content: Readonly<Record<string, OperationMedia>>;
  readonly headers: Readonly<Record<string, OperationHeader>>;
}

/** The request body as it is sent: its JSON media type (else the first one) and that media type's schema. */
export interface OperationBody {
  readonly required: boolean;
  readonly mediaType: string;
  readonly schema: SchemaAt | undefined;
}

export interface OperationQuery {
  readonly parameters: readonly OperationParameter[];
  /**
   * The one object schema that states the whole query, when every query parameter's schema is a
   * `$ref` to a property of it (`LogStreamQuery`): its rules over several parameters (`if`/`then`)
   * apply to the query as a whole.
   */
  readonly pointer: string | undefined;
}

/** The answer of a call that succeeds: the operation's first 2xx response. */
export interface OperationSuccess {
  readonly status: string;
  /** Undefined for an answer without a body. */
  readonly mediaType: string | undefined;
  readonly schema: SchemaAt | undefined;
  /** For a `text/event-stream` answer, the schema of each event's data (`x-sse-event-data`). */
  readonly eventData: SchemaAt | undefined;
}

/** One operation of the document with its references followed and every schema located. */
export interface Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path template: `/profiles/{id_or_name}`. */
  readonly path: string;
  readonly pointer: string;
  readonly operation: OperationObject;
  /** The path item's parameters merged with the operation's (the operation's win). */
  readonly parameters: readonly OperationParameter[];
  readonly requestBody: OperationRequestBody | undefined;
  readonly body: OperationBody | undefined;
  /** Undefined when the operation has no query parameter. */
  readonly query: OperationQuery | undefined;
  readonly responses: Readonly<Record<string, OperationResponse>>;
  readonly success: OperationSuccess | undefined;
  /** Whether the success answer is a `text/event-stream`. */
  readonly streaming: boolean;
  /**
   * Whether every security requirement (the operation's `security`, else the document's) needs a
   * credential: an empty requirement `{}` makes it optional.
   */
  readonly secured: boolean;
  /**
   * Whether a request that may have reached the server can be sent again: once a response came
   * back, or after a failure that may follow sending (a timeout, a connection lost mid-request).
   */
  readonly repeatability: {
    /** `x-repeatable` of the operation; without it, HTTP's idempotency of the method (RFC 9110 §9.2.2). */
    readonly repeatable: boolean;
    /**
     * `x-repeatable-when-matches` by parameter: a request is repeatable only when each of these
     * values matches its pattern (a Unicode regular expression). The profile rename is repeatable
     * by ID (`^prof_`), not by name: once applied, the old name no longer resolves.
     */
    readonly when: Readonly<Record<string, string>>;
  };
  /**
   * Whether the operation only reads: its method is one of HTTP's safe methods (GET, HEAD, OPTIONS,
   * TRACE; RFC 9110 §9.2.1) and the document does not say a request of it cannot be sent again
   * (`x-repeatable: false`, which only a request that changes something needs). Any other
   * operation may change the resource it addresses: the contract suite sends it on a live server
   * only to resources it was given or created.
   */
  readonly safe: boolean;
  /** Where a generated SDK puts the operation: `client.<resource…>.<verb>()` (`['auth', 'connections']`, `login`). */
  readonly sdk: { readonly resource: readonly string[]; readonly verb: string };
  /** What every generator calls the operation and its parts: derived here only (see identifiers.ts). */
  readonly names: OperationNames;
}

/** The names of an operation in generated code, each safe where it is used. */
export interface OperationNames {
  /** The client's function: `renameProfile`; `delete_` for an operationId `delete`. */
  readonly function: string;
  /** The prefix of the types and validators of its parts: `RenameProfile` (`validateRenameProfilePath`). */
  readonly type: string;
  /** The CLI command's words: `['auth', 'connections', 'login']`. */
  readonly command: readonly string[];
  /** The MCP tool: `rename_profile`; for an event stream, its paged tail, `tail_browser_logs`. */
  readonly tool: string;
  /** A file named for the operation, without extension (`rename-profile`): never a path. */
  readonly file: string;
  /** Each path parameter's argument in generated code, by parameter name: `id_or_name` → `idOrName`. */
  readonly pathArguments: Readonly<Record<string, string>>;
}

/** The names a generated operation's function uses itself beside its path arguments. */
const FUNCTION_LOCALS = new Set(['connection', 'body', 'query', 'options', 'context']);

/** The methods HTTP defines as idempotent (RFC 9110 §9.2.2). */
const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['get', 'head', 'options', 'put', 'delete', 'trace']);
/** The methods HTTP defines as safe, read-only (RFC 9110 §9.2.1). */
const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['get', 'head', 'options', 'trace']);

/**
 * Every operation of the document, in document order.
 * @throws OpenApiDocumentError for an operation without `operationId` or with a `$ref` that does not
 *   resolve: every consumer (generator, sandbox routes, contract coverage) needs both.
 */
export function* operations(document: OpenApiDocument): Generator<Operation> {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (operation === undefined) continue;
      const pointer = formatPointer(['paths', path, method]);
      if (typeof operation?.operationId !== 'string' || operation.operationId === '') {
        throw new OpenApiDocumentError(`the operation at ${pointer} has no operationId`, { pointer });
      }
      const parameters = parametersOf(document, path, [
        [item.parameters, formatPointer(['paths', path])],
        [operation.parameters, pointer],
      ]);
      let requestBody: OperationRequestBody | undefined;
      if (operation.requestBody !== undefined) {
        const at = appendPointer(pointer, 'requestBody');
        const { node: body, pointer: where } = resolveNode<RequestBodyObject>(document, operation.requestBody, at);
        requestBody = {
          required: body.required === true,
          pointer: where,
          content: contentOf(document, body.content, where),
        };
      }
      const responses = responsesOf(document, operation, pointer);
      const success = successOf(responses);
      const requirements = (operation['security'] ?? document['security'] ?? []) as Record<string, unknown>[];
      const repeatability = repeatabilityOf(operation, method, parameters, pointer);
      const sdk = sdkNameOf(operation, operation.operationId, path, pointer);
      const streaming = success?.mediaType === EVENT_STREAM;
      yield {
        operationId: operation.operationId,
        method,
        path,
        pointer,
        operation,
        parameters,
        requestBody,
        body: bodyOf(requestBody),
        query: queryOf(parameters),
        responses,
        success,
        streaming,
        secured: requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).length > 0),
        repeatability,
        safe: SAFE_METHODS.has(method) && operation['x-repeatable'] !== false,
        sdk,
        names: namesOf(operation.operationId, sdk, streaming, parameters, pointer),
      };
    }
  }
}

/** The operation with this `operationId`. @throws OpenApiDocumentError when there is none. */
export function findOperation(document: OpenApiDocument, operationId: string): Operation {
  for (const operation of operations(document)) if (operation.operationId === operationId) return operation;
  throw new OpenApiDocumentError(`the OpenAPI document has no operation "${operationId}"`);
}

/** The response the document gives for an HTTP status: the exact code, else its range (`4XX`), else `default`. */
export function findResponse(operation: Operation, status: number): OperationResponse | undefined {
  const code = String(status);
  return operation.responses[code] ?? operation.responses[`${code[0]}XX`] ?? operation.responses['default'];
}

function parametersOf(
  document: OpenApiDocument,
  path: string,
  lists: readonly [OperationObject['parameters'], string][],
): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  const inTemplate = [...path.matchAll(/\{([^}]*)\}/g)].map(([, name]) => name!);
  const where = formatPointer(['paths', path]);
  // Outside its parameters, a path is sent as written: what a URL carries only percent-encoded
  // (RFC 3986: non-ASCII letters, spaces, `%`) would reach each layer in two spellings.
  const unsent = [...path.replace(/\{[^}]*\}/g, '')].find((char) => !/[A-Za-z0-9._\-/]/.test(char));
  if (unsent !== undefined)
    throw new OpenApiDocumentError(
      `the path ${path} has "${unsent}", which a URL carries only percent-encoded: write its segments with ASCII letters, digits and - . _`,
      { pointer: where },
    );
  const twice = inTemplate.find((name, i) => inTemplate.indexOf(name) !== i);
  if (twice !== undefined)
    throw new OpenApiDocumentError(`the path ${path} names {${twice}} twice`, { pointer: where });
  for (const [list, base] of lists) {
    (list ?? []).forEach((raw, i) => {
      const { node: parameter, pointer } = resolveNode(document, raw, appendPointer(base, 'parameters', i));
      if (typeof parameter?.name !== 'string' || typeof parameter.in !== 'string') {
        throw new OpenApiDocumentError(`the parameter at ${pointer} needs a name and an "in"`, { pointer });
      }
      if (parameter.in === 'path' && !inTemplate.includes(parameter.name)) {
        throw new OpenApiDocumentError(
          `the path parameter "${parameter.name}" at ${pointer} is not in the path ${path}: add {${parameter.name}} to it or remove the parameter`,
          { pointer },
        );
      }
      const collection = parameter.in === 'path' ? collectionOf(path, parameter.name) : undefined;
      byKey.set(`${parameter.in} ${parameter.name}`, {
        name: parameter.name,
        in: parameter.in,
        required: parameter.in === 'path' || parameter.required === true,
        collection,
        addresses: parameter.in === 'path' ? addressedBy(collection) : undefined,
        pointer,
        parameter,
        schema: schemaAt(document, parameter.schema, pointer),
        serialization: serializationOf(parameter, pointer),
      });
    });
  }
  const parameters = [...byKey.values()];
  for (const name of inTemplate) {
    if (!parameters.some((p) => p.in === 'path' && p.name === name)) {
      throw new OpenApiDocumentError(
        `the path ${path} has {${name}}, which no path parameter of ${lists.at(-1)![1]} declares`,
        { pointer: lists.at(-1)![1] },
      );
    }
  }
  return parameters;
}

/** What a path value addresses, in words (`profile`, `auth connection`): for error messages. */
function addressedBy(collection: string | undefined): string {
  return collection ? words(singular(collection)).join(' ').toLowerCase() || 'resource' : 'resource';
}

/**
 * The parameter's `style` and `explode`, defaults filled in. A style OpenAPI does not define for
 * the parameter's place, or `explode` that is not a boolean, is refused: no layer could agree with
 * another on what it means.
 */
function serializationOf(parameter: ParameterObject, pointer: string): ParameterSerialization {
  const allowed: readonly string[] = PARAMETER_STYLES[parameter.in] ?? [];
  const style = parameter['style'] ?? allowed[0];
  if (typeof style !== 'string' || !allowed.includes(style)) {
    throw new OpenApiDocumentError(
      `the parameter at ${pointer} has style ${JSON.stringify(style)}; a ${parameter.in} parameter takes ${allowed.join(', ')}`,
      { pointer: `${pointer}/style` },
    );
  }
  // A deepObject is defined exploded only: so it is when `explode` is left out.
  const explode = parameter['explode'] ?? (style === 'form' || style === 'deepObject');
  if (typeof explode !== 'boolean') {
    throw new OpenApiDocumentError(`explode at ${pointer} must be true or false`, { pointer: `${pointer}/explode` });
  }
  if (style === 'deepObject' && !explode) {
    throw new OpenApiDocumentError(`the parameter at ${pointer} is a deepObject, which OpenAPI defines exploded only`, {
      pointer: `${pointer}/explode`,
    });
  }
  return { style: style as ParameterStyle, explode };
}

function responsesOf(document: OpenApiDocument, operation: OperationObject, base: string) {
  return Object.fromEntries(
    Object.entries(operation.responses ?? {}).map(([status, raw]): [string, OperationResponse] => {
      const at = appendPointer(base, 'responses', status);
      const { node: response, pointer } = resolveNode<ResponseObject>(document, raw, at);
      const headers = Object.entries(response.headers ?? {}).map(([name, raw]): [string, OperationHeader] => {
        const { node, pointer: at } = resolveNode<HeaderObject>(document, raw, appendPointer(pointer, 'headers', name));
        return [
          name,
          { name, required: node.required === true, pointer: at, schema: schemaAt(document, node.schema, at) },
        ];
      });
      const content = contentOf(document, response.content, pointer);
      return [status, { status, pointer, response, content, headers: Object.fromEntries(headers) }];
    }),
  );
}

function contentOf(document: OpenApiDocument, content: Record<string, MediaTypeObject> | undefined, base: string) {
  return Object.fromEntries(
    Object.entries(content ?? {}).map(([mediaType, media]): [string, OperationMedia] => {
      const pointer = appendPointer(base, 'content', mediaType);
      return [mediaType, { mediaType, pointer, media, schema: schemaAt(document, media.schema, pointer) }];
    }),
  );
}

/** The `schema` of the object at `pointer`. */
function schemaAt(document: OpenApiDocument, schema: JsonSchema | undefined, pointer: string): SchemaAt | undefined {
  if (schema === undefined) return undefined;
  const at = appendPointer(pointer, 'schema');
  return { schema: resolveNode(document, schema, at).node, pointer: at };
}

const EVENT_STREAM = 'text/event-stream';

function bodyOf(requestBody: OperationRequestBody | undefined): OperationBody | undefined {
  if (requestBody === undefined) return undefined;
  const types = Object.keys(requestBody.content);
  const mediaType = types.find((type) => /^application\/(?:[\w.-]+\+)?json$/i.test(type)) ?? types[0];
  if (mediaType === undefined) return undefined;
  return { required: requestBody.required, mediaType, schema: requestBody.content[mediaType]?.schema };
}

function queryOf(parameters: readonly OperationParameter[]): OperationQuery | undefined {
  const query = parameters.filter((p) => p.in === 'query');
  if (query.length === 0) return undefined;
  const parents = new Set(
    query.map((p) => {
      const ref = (p.parameter.schema as { $ref?: unknown } | undefined)?.$ref;
      const suffix = `/properties/${escapePointerToken(p.name)}`;
      return typeof ref === 'string' && ref.startsWith('#') && ref.endsWith(suffix)
        ? formatPointer(parsePointer(ref.slice(0, -suffix.length)))
        : undefined;
    }),
  );
  const [parent] = parents;
  return { parameters: query, pointer: parents.size === 1 ? parent : undefined };
}

function successOf(responses: Readonly<Record<string, OperationResponse>>): OperationSuccess | undefined {
  const response = Object.values(responses).find((r) => /^2(?:\d\d|XX)$/.test(r.status));
  if (response === undefined) return undefined;
  const [media] = Object.values(response.content);
  const data = (media?.schema?.schema as { 'x-sse-event-data'?: JsonSchema } | undefined)?.['x-sse-event-data'];
  const eventData =
    media?.mediaType === EVENT_STREAM && media.schema && data !== undefined
      ? { schema: data, pointer: appendPointer(media.schema.pointer, 'x-sse-event-data') }
      : undefined;
  return { status: response.status, mediaType: media?.mediaType, schema: media?.schema, eventData };
}

function repeatabilityOf(
  operation: OperationObject,
  method: HttpMethod,
  parameters: readonly OperationParameter[],
  pointer: string,
): Operation['repeatability'] {
  const flag = operation['x-repeatable'];
  if (flag !== undefined && typeof flag !== 'boolean') {
    throw new OpenApiDocumentError(`x-repeatable at ${pointer} must be true or false`, {
      pointer: `${pointer}/x-repeatable`,
    });
  }
  const repeatable = flag ?? IDEMPOTENT_METHODS.has(method);
  const when: Record<string, string> = {};
  for (const parameter of parameters) {
    const pattern = parameter.parameter['x-repeatable-when-matches'];
    if (pattern === undefined) continue;
    const where = `x-repeatable-when-matches at ${parameter.pointer}`;
    const at = `${parameter.pointer}/x-repeatable-when-matches`;
    if (typeof pattern !== 'string')
      throw new OpenApiDocumentError(`${where} must be a regular expression (a string)`, { pointer: at });
    try {
      new RegExp(pattern, 'u');
    } catch (error) {
      throw new OpenApiDocumentError(`${where} is not a regular expression: ${(error as Error).message}`, {
        pointer: at,
      });
    }
    if (!repeatable) {
      throw new OpenApiDocumentError(`${where} narrows an operation that is not repeatable (${pointer})`, {
        pointer: at,
      });
    }
    when[parameter.name] = pattern;
  }
  return { repeatable, when };
}

/**
 * `client.<resource>.<verb>`: the verb is `x-sdk-verb`, else the operationId's first word
 * (`rename` of `renameProfile`); the resource is the path's static segments, camel-cased, less
 * a last segment that is the verb itself (`/auth/connections/{id}/login` → `auth.connections`).
 * Each is a safe property name (`_2fa`, `constructor_`).
 */
function sdkNameOf(operation: OperationObject, operationId: string, path: string, pointer: string): Operation['sdk'] {
  const given = operation['x-sdk-verb'];
  if (given !== undefined && (typeof given !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(given))) {
    throw new OpenApiDocumentError(`x-sdk-verb at ${pointer} must be a camelCase identifier`, {
      pointer: `${pointer}/x-sdk-verb`,
    });
  }
  const verb = safeProperty(given ?? camelCase(words(operationId)[0] ?? ''));
  if (verb === '') {
    throw new OpenApiDocumentError(
      `the operationId at ${pointer} has no letter or digit to name a method; set x-sdk-verb`,
      { pointer: `${pointer}/operationId` },
    );
  }
  const resource = path
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith('{'))
    .map((segment) => {
      const name = safeProperty(camelCase(segment));
      if (name === '') {
        throw new OpenApiDocumentError(`the path segment "${segment}" has no letter or digit to name a resource`, {
          pointer,
        });
      }
      return name;
    });
  if (resource.at(-1) === verb) resource.pop();
  return { resource, verb };
}

function namesOf(
  operationId: string,
  sdk: Operation['sdk'],
  streaming: boolean,
  parameters: readonly OperationParameter[],
  pointer: string,
): OperationNames {
  const at = `${pointer}/operationId`;
  const fn = safeIdentifier(camelCase(operationId));
  if (fn === '')
    throw new OpenApiDocumentError(`the operationId at ${pointer} has no letter or digit`, { pointer: at });
  // A key of the generated tool table: `constructor` would find what every object has.
  const tool = safeProperty(
    streaming ? `tail_${snakeCase(words(operationId).slice(1).join(' ')) || 'events'}` : snakeCase(operationId),
  );
  const pathArguments: Record<string, string> = {};
  const byArgument = new Map<string, OperationParameter>();
  for (const parameter of parameters.filter((p) => p.in === 'path')) {
    let argument = safeIdentifier(camelCase(parameter.name));
    if (argument === '') {
      throw new OpenApiDocumentError(
        `the path parameter "${parameter.name}" at ${parameter.pointer} has no letter or digit to name an argument`,
        { pointer: parameter.pointer },
      );
    }
    if (FUNCTION_LOCALS.has(argument)) argument = `${argument}_`;
    const other = byArgument.get(argument);
    if (other) {
      throw new OpenApiDocumentError(
        `the path parameters "${other.name}" (${other.pointer}) and "${parameter.name}" (${parameter.pointer}) both make the argument ${argument}: rename one`,
        { pointer: parameter.pointer },
      );
    }
    byArgument.set(argument, parameter);
    pathArguments[parameter.name] = argument;
  }
  return {
    function: fn,
    type: pascalCase(fn.replace(/_$/, '')),
    command: [...sdk.resource, sdk.verb].map((name) => kebabCase(name)),
    tool,
    file: kebabCase(operationId),
    pathArguments,
  };
}

/** The static path segment before `{name}`, if there is one. */
function collectionOf(path: string, name: string): string | undefined {
  const segments = path.split('/');
  const before = segments[segments.indexOf(`{${name}}`) - 1];
  return before && !before.startsWith('{') ? before : undefined;
}
