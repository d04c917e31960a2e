// The one checker of requests against the OpenAPI document (sandbox, mock front, contract harness):
// the same refusals in the same words, read from the operations model only.
import { type ErrorBody, toIssues } from '@browser-cloud/api-types';
import {
  ajvRef,
  documentAjv,
  type OpenApiDocument,
  type Operation,
  type OperationParameter,
  operations,
  ParameterTextError,
  readQueryValues,
  readSimpleValue,
  type ValidateFunction,
} from '@browser-cloud/openapi-document';

/** A request answered with an Error body instead of being served. */
export interface Refusal {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The operation a request line names, with its path parameters decoded (not yet checked against their schemas). */
export interface RouteMatch {
  readonly operation: Operation;
  readonly path: Readonly<Record<string, string>>;
}

/** What a request sends besides its line. */
export interface RequestParts {
  readonly search: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as received; `undefined` or blank text is no body. */
  readonly body: Uint8Array | string | undefined;
}

/** A request that keeps every rule of its operation: path decoded, query values typed, JSON body parsed. */
export interface CheckedRequest {
  readonly operation: Operation;
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

export interface RequestChecker {
  readonly operations: readonly Operation[];
  /**
   * The operation of `method` and `pathname`, or 404 (no such path), 405 (no such method there) or
   * 400 (a path value that is not percent-encoded UTF-8). A server whose router already knows the
   * operation (the Fastify routes of `operationRoute`) skips this and passes its match to `check`.
   */
  route(method: string, pathname: string): RouteMatch | Refusal;
  /** The path, the query and the body against the operation, in that order: the first broken rule's 400. */
  check(match: RouteMatch, parts: RequestParts): CheckedRequest | Refusal;
}

/** Deepest nesting of objects and arrays a JSON body may have; the document's bodies need 4. */
export const MAX_JSON_DEPTH = 32;

const PART_MESSAGE = {
  path: 'the path is invalid',
  query: 'the query is invalid',
  body: 'the request body is invalid',
  headers: 'the request headers are invalid',
};
type Part = keyof typeof PART_MESSAGE;

export function isRefusal(value: RouteMatch | CheckedRequest | { value: unknown } | Refusal): value is Refusal {
  return 'status' in value;
}

/** A 400 `bad_request` of a request part, one `invalid_input` detail per problem (at most 20, of 500 characters). */
export function invalidPart(part: Part, problems: readonly string[]): Refusal {
  const details = problems.slice(0, 20).map((message) => ({ code: 'invalid_input', message: clip(message) }));
  return { status: 400, body: { code: 'bad_request', message: PART_MESSAGE[part], details } };
}

/** The checker of `document`'s operations: `$ref`s into the document, compiled once by its Ajv. */
export function createRequestChecker(document: OpenApiDocument): RequestChecker {
  const ajv = documentAjv(document);
  const compiled = new Map(
    [...operations(document)].map((operation) => {
      const inPath = operation.parameters.filter((p) => p.in === 'path');
      const inHeaders = operation.parameters.filter((p) => p.in === 'header');
      const { query, body } = operation;
      // Closed: a parameter the document does not declare is refused, not ignored.
      const querySchema = query?.pointer ? { $ref: ajvRef(query.pointer) } : objectOf(query?.parameters ?? []);
      const checks = {
        pattern: templatePattern(operation.path),
        pathNames: inPath.map((p) => p.name),
        pathParameters: new Map(inPath.map((p) => [p.name, p])),
        validatePath: ajv.compile(objectOf(inPath)),
        // Open: a request carries many headers the document does not declare.
        validateHeaders: ajv.compile({ ...objectOf(inHeaders), additionalProperties: true }),
        validateQuery: ajv.compile(querySchema),
        validateBody: body?.schema && ajv.compile({ $ref: ajvRef(body.schema.pointer) }),
      };
      return [operation, checks] as const;
    }),
  );

  return {
    operations: [...compiled.keys()],
    route(method, pathname) {
      const matches = [...compiled].filter(([, { pattern }]) => pattern.test(pathname));
      if (matches.length === 0) {
        const message = `no operation of the document has the path ${clip(pathname, 100)}`;
        return { status: 404, body: { code: 'not_found', message } };
      }
      const match = matches.find(([operation]) => operation.method === method.toLowerCase());
      if (!match) {
        const allow = [...new Set(matches.map(([operation]) => operation.method.toUpperCase()))].join(', ');
        const message = `${clip(method, 100)} is not an operation of ${clip(pathname, 100)}; use ${allow}`;
        return { status: 405, headers: { allow }, body: { code: 'method_not_allowed', message } };
      }
      const [operation, { pattern, pathNames }] = match;
      const groups = pattern.exec(pathname)?.slice(1) ?? [];
      const path: Record<string, string> = {};
      for (const [i, name] of pathNames.entries()) {
        try {
          path[name] = decodeURIComponent(groups[i] ?? '');
        } catch {
          return invalidPart('path', [`${name}: is not valid percent-encoding`]);
        }
      }
      return { operation, path };
    },
    check({ operation, path }, parts) {
      const c = compiled.get(operation);
      if (c === undefined) throw new Error(`${operation.operationId} is not an operation of this checker`);
      const pathRefusal = validated(c.validatePath, typedPath(document, c.pathParameters, path), 'path');
      if (pathRefusal) return pathRefusal;
      const headerRefusal = checkHeaders(document, operation, c.validateHeaders, parts.headers);
      if (headerRefusal) return headerRefusal;
      const query = readQuery(document, operation.query?.parameters ?? [], c.validateQuery, parts.search);
      if (isRefusal(query)) return query;
      const body = readBody(operation, c.validateBody, parts);
      return isRefusal(body) ? body : { operation, path, query: query.value, body: body.value };
    },
  };
}

function objectOf(parameters: readonly OperationParameter[]): object {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema ? { $ref: ajvRef(p.schema.pointer) } : {}])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

/**
 * The query read as each parameter's style and schema say (`colors=red&colors=blue` is an array;
 * `limit=5` a number), then checked. Percent-encoding that is not UTF-8 is refused, not read as
 * U+FFFD as URLSearchParams does.
 */
function readQuery(
  document: OpenApiDocument,
  parameters: readonly OperationParameter[],
  validateQuery: ValidateFunction,
  search: string,
): { value: Record<string, unknown> } | Refusal {
  let value: Record<string, unknown>;
  try {
    value = readQueryValues(document, parameters, search);
  } catch (error) {
    if (error instanceof ParameterTextError) return invalidPart('query', [error.message]);
    throw error;
  }
  return validated(validateQuery, value, 'query') ?? { value };
}

/**
 * The path values as their schemas type them (an integer id, an array in the `simple` style), for
 * the checks; the request keeps the text. The values come decoded (a router decoded them), so a
 * comma separates an array's items.
 */
function typedPath(
  document: OpenApiDocument,
  parameters: ReadonlyMap<string, OperationParameter>,
  path: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const typed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(path)) {
    const parameter = parameters.get(name);
    const encoded = value.split(',').map(encodeURIComponent).join(',');
    typed[name] = parameter ? readSimpleValue(document, parameter, encoded, true) : value;
  }
  return typed;
}

/** The header parameters the operation declares, read in the `simple` style and checked; other headers pass. */
function checkHeaders(
  document: OpenApiDocument,
  operation: Operation,
  validateHeaders: ValidateFunction,
  headers: RequestParts['headers'],
): Refusal | undefined {
  const values: Record<string, unknown> = {};
  for (const parameter of operation.parameters.filter((p) => p.in === 'header')) {
    const given = headers[parameter.name.toLowerCase()];
    if (given === undefined) continue;
    const text = Array.isArray(given) ? given.join(', ') : given;
    values[parameter.name] = readSimpleValue(document, parameter, text, false);
  }
  return validated(validateHeaders, values, 'headers');
}

function readBody(
  operation: Operation,
  validateBody: ValidateFunction | undefined,
  parts: RequestParts,
): { value: unknown } | Refusal {
  let text: string;
  try {
    text = typeof parts.body === 'string' ? parts.body : new TextDecoder('utf-8', { fatal: true }).decode(parts.body);
  } catch {
    return invalidPart('body', ['body: is not valid UTF-8']);
  }
  if (text.trim() === '')
    return operation.body?.required ? invalidPart('body', ['body: is required']) : { value: undefined };
  if (operation.body === undefined) return invalidPart('body', ['body: is not allowed (the operation takes no body)']);
  const header = parts.headers['content-type'];
  const contentType = Array.isArray(header) ? header.join(', ') : header;
  const accepted = Object.keys(operation.requestBody?.content ?? {}).map((t) => t.toLowerCase());
  if (!accepted.includes(contentType?.split(';')[0]?.trim().toLowerCase() ?? '')) {
    const got = contentType === undefined ? 'none' : JSON.stringify(clip(contentType));
    return invalidPart('headers', [`content-type: must be ${accepted.join(' or ')} (got ${got})`]);
  }
  const parsed = parseJson(text);
  return isRefusal(parsed) || validateBody === undefined
    ? parsed
    : (validated(validateBody, parsed.value, 'body') ?? parsed);
}

/**
 * JSON text as a value, or the 400 of a body that is not JSON or nests deeper than
 * {@link MAX_JSON_DEPTH}, found before any parse (a million levels cost a few dozen characters).
 */
export function parseJson(text: string): { value: unknown } | Refusal {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (++depth > MAX_JSON_DEPTH) {
        return invalidPart('body', [
          `body: nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels (at character ${i})`,
        ]);
      }
    } else if (c === '}' || c === ']') depth--;
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return invalidPart('body', [`body: is not valid JSON (${(error as Error).message})`]);
  }
}

/** The part's 400, or undefined when it keeps the document's schemas and has well-formed Unicode. */
function validated(validate: ValidateFunction, value: unknown, part: Part): Refusal | undefined {
  const illFormed = illFormedStrings(value, part);
  if (illFormed.length > 0) return invalidPart(part, illFormed);
  if (validate(value)) return undefined;
  // Fields named within their part: the message already says which part.
  const issues = toIssues(validate.errors ?? [], value, part, { prefixFields: false });
  const problems = issues.map((issue) => issue.message);
  return invalidPart(part, problems);
}

/**
 * One problem per string (property names included) holding a lone surrogate, which JSON can carry
 * as `\ud800` but no URL can: such a name could never be addressed again.
 */
function illFormedStrings(value: unknown, part: string): string[] {
  const isWellFormed = (text: string) => (text as string & { isWellFormed(): boolean }).isWellFormed();
  const found: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (typeof node === 'string') {
      if (!isWellFormed(node)) found.push(`${at || part}: must be well-formed Unicode (it holds a lone surrogate)`);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        if (!isWellFormed(key)) found.push(`${part}: a property name must be well-formed Unicode`);
        else visit(item, Array.isArray(node) ? `${at}[${key}]` : at ? `${at}.${key}` : key);
      }
    }
  };
  visit(value, '');
  return found;
}

/**
 * `/profiles/{id_or_name}` → a pattern whose groups are the raw segments (the odd parts of the split).
 * An empty one matches too: `/profiles/` is refused by the parameter's own rule, not answered 404.
 */
function templatePattern(template: string): RegExp {
  const parts = template.split(/(\{[^}]+\})/);
  const source = parts.map((part, i) => (i % 2 ? '([^/]*)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${source.join('')}$`);
}

/** At most `max` characters of `text` a client sent; a cut says how long it was. */
export function clip(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
