// The one checker of requests against the OpenAPI document: the sandbox, the mock's front and
// the contract harness all route and check requests with it, so that they refuse the same
// requests with the same words. It reads the operations model of @browser-cloud/openapi-document
// and nothing else: an operation added to the document is checked with no code change.
import { type ErrorBody, type ErrorDetail, toIssues } from '@browser-cloud/api-types';
import {
  ajvRef,
  documentAjv,
  type OpenApiDocument,
  type Operation,
  type OperationParameter,
  operations,
  type ValidateFunction,
} from '@browser-cloud/openapi-document';

/** A request answered with an Error body instead of being served. */
export interface Refusal {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The operation a request line names, with its path parameters as sent (still percent-encoded). */
export interface RouteMatch {
  readonly operation: Operation;
  readonly encodedPath: Readonly<Record<string, string>>;
}

/** What a request sends besides its line. */
export interface RequestParts {
  /** The query string, without `?`. */
  readonly search: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as received; `undefined` or blank text is no body. */
  readonly body: Uint8Array | string | undefined;
}

/** A request that keeps every rule of its operation, its parts decoded. */
export interface CheckedRequest {
  readonly operation: Operation;
  readonly path: Readonly<Record<string, string>>;
  /** Query values read as their parameters' types (`follow=true` is `true`). */
  readonly query: Readonly<Record<string, unknown>>;
  /** The parsed JSON body; `undefined` when none was sent. */
  readonly body: unknown;
}

export interface RequestChecker {
  /** Every operation of the document, in document order. */
  readonly operations: readonly Operation[];
  /** The operation of `method` and `pathname`, or 404 (no such path) or 405 (no such method there). */
  route(method: string, pathname: string): RouteMatch | Refusal;
  /** The path, the query and the body against the operation, in that order: the first broken rule's 400. */
  check(match: RouteMatch, parts: RequestParts): CheckedRequest | Refusal;
}

/** Deepest nesting of objects and arrays a JSON body may have; the document's bodies need 4. */
export const MAX_JSON_DEPTH = 32;

/** The longest detail message, and the most details: a value quoted in a message must not make the answer large. */
const MAX_DETAIL_CHARS = 500;
const MAX_DETAILS = 20;

type Part = 'path' | 'query' | 'body' | 'headers';

const PART_MESSAGE: Record<Part, string> = {
  path: 'the path is invalid',
  query: 'the query is invalid',
  body: 'the request body is invalid',
  headers: 'the request headers are invalid',
};

export function isRefusal(value: RouteMatch | CheckedRequest | Refusal): value is Refusal {
  return 'status' in value;
}

/** A 400 `bad_request` of a request part, one `invalid_input` detail per problem. */
export function invalidPart(part: Part, problems: readonly string[]): Refusal {
  const details: ErrorDetail[] = problems.slice(0, MAX_DETAILS).map((message) => ({
    code: 'invalid_input',
    message: clip(message),
  }));
  return { status: 400, body: { code: 'bad_request', message: PART_MESSAGE[part], details } };
}

interface Compiled {
  readonly operation: Operation;
  readonly pattern: RegExp;
  readonly pathNames: readonly string[];
  readonly validatePath: ValidateFunction;
  readonly validateQuery: ValidateFunction;
  readonly validateBody: ValidateFunction | undefined;
}

/**
 * The checker of `document`'s operations. Schemas are `$ref`s into the document registered with
 * its one Ajv (formats asserted), compiled once here.
 */
export function createRequestChecker(document: OpenApiDocument): RequestChecker {
  const ajv = documentAjv(document);
  const compiled = [...operations(document)].map((operation): Compiled => {
    const inPath = operation.parameters.filter((p) => p.in === 'path');
    const query = operation.query;
    const body = operation.body?.schema;
    return {
      operation,
      pattern: templatePattern(operation.path),
      pathNames: inPath.map((p) => p.name),
      validatePath: ajv.compile(objectOf(inPath)),
      // Closed: a parameter the document does not declare is refused, not ignored.
      validateQuery: ajv.compile(query?.pointer ? { $ref: ajvRef(query.pointer) } : objectOf(query?.parameters ?? [])),
      validateBody: body && ajv.compile({ $ref: ajvRef(body.pointer) }),
    };
  });
  const byOperation = new Map(compiled.map((c) => [c.operation, c]));

  return {
    operations: compiled.map((c) => c.operation),
    route(method, pathname) {
      const matches = compiled.map((c) => ({ c, groups: c.pattern.exec(pathname) })).filter((m) => m.groups !== null);
      if (matches.length === 0) {
        return {
          status: 404,
          body: { code: 'not_found', message: `no operation of the document has the path ${clip(pathname)}` },
        };
      }
      const match = matches.find((m) => m.c.operation.method === method.toLowerCase());
      if (!match) {
        const allowed = [...new Set(matches.map((m) => m.c.operation.method.toUpperCase()))].join(', ');
        return {
          status: 405,
          headers: { allow: allowed },
          body: {
            code: 'method_not_allowed',
            message: `${clip(method)} is not an operation of ${clip(pathname)}; use ${allowed}`,
          },
        };
      }
      const { c, groups } = match;
      const encodedPath = Object.fromEntries(c.pathNames.map((name, i) => [name, groups?.[i + 1] ?? '']));
      return { operation: c.operation, encodedPath };
    },
    check(match, parts) {
      const c = byOperation.get(match.operation);
      if (c === undefined) throw new Error(`${match.operation.operationId} is not an operation of this checker`);
      const path: Record<string, string> = {};
      for (const [name, raw] of Object.entries(match.encodedPath)) {
        try {
          path[name] = decodeURIComponent(raw);
        } catch {
          return invalidPart('path', [`${name}: is not valid percent-encoding`]);
        }
      }
      const pathRefusal = validated(c.validatePath, path, 'path');
      if (pathRefusal) return pathRefusal;
      const query = readQuery(c.operation.query?.parameters ?? [], parts.search);
      if (isRefusalOf(query)) return query;
      const queryRefusal = validated(c.validateQuery, query, 'query');
      if (queryRefusal) return queryRefusal;
      const body = readBody(c, parts);
      if (isRefusalOf(body)) return body;
      return { operation: c.operation, path, query, body: body.value };
    },
  };
}

function objectOf(parameters: readonly OperationParameter[]): object {
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((p) => [p.name, p.schema === undefined ? {} : { $ref: ajvRef(p.schema.pointer) }]),
    ),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

/**
 * Each value read as its parameter's type; a repeated parameter is an array, which a scalar
 * schema refuses. Percent-encoding that is not UTF-8 (a lone surrogate's bytes, say) is refused
 * rather than read as U+FFFD, as URLSearchParams would.
 */
function readQuery(parameters: readonly OperationParameter[], search: string): Record<string, unknown> | Refusal {
  const types = new Map(parameters.map((p) => [p.name, (p.schema?.schema as { type?: unknown } | undefined)?.type]));
  const query: Record<string, unknown[]> = {};
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    let name: string;
    let text: string;
    try {
      [name, text] = [pair.slice(0, at < 0 ? undefined : at), at < 0 ? '' : pair.slice(at + 1)].map((part) =>
        decodeURIComponent(part.replaceAll('+', ' ')),
      ) as [string, string];
    } catch {
      return invalidPart('query', [`${clip(pair)}: is not valid percent-encoding`]);
    }
    query[name] = [...(query[name] ?? []), readAs(types.get(name), text)];
  }
  return Object.fromEntries(
    Object.entries(query).map(([name, values]) => [name, values.length === 1 ? values[0] : values]),
  );
}

/** Text that does not read as the type stays text, for the validator to refuse. */
function readAs(type: unknown, text: string): unknown {
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  return text;
}

function readBody(c: Compiled, parts: RequestParts): { value: unknown } | Refusal {
  let text: string;
  try {
    text = typeof parts.body === 'string' ? parts.body : new TextDecoder('utf-8', { fatal: true }).decode(parts.body);
  } catch {
    return invalidPart('body', ['body: is not valid UTF-8']);
  }
  const body = c.operation.body;
  if (text.trim() === '') {
    return body?.required ? invalidPart('body', ['body: is required']) : { value: undefined };
  }
  if (body === undefined) return invalidPart('body', ['body: is not allowed (the operation takes no body)']);
  const contentType = headerValue(parts.headers['content-type']);
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  const accepted = Object.keys(c.operation.requestBody?.content ?? {}).map((t) => t.toLowerCase());
  if (mediaType === undefined || !accepted.includes(mediaType)) {
    return invalidPart('headers', [
      `content-type: must be ${accepted.join(' or ')} (got ${contentType === undefined ? 'none' : JSON.stringify(clip(contentType))})`,
    ]);
  }
  const deep = nestingBeyond(text, MAX_JSON_DEPTH);
  if (deep >= 0) {
    return invalidPart('body', [
      `body: nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels (at character ${deep})`,
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return invalidPart('body', [`body: is not valid JSON (${(error as Error).message})`]);
  }
  if (c.validateBody === undefined) return { value };
  return validated(c.validateBody, value, 'body') ?? { value };
}

function isRefusalOf<T extends object>(value: T | Refusal): value is Refusal {
  return 'status' in value && 'body' in value;
}

/**
 * The part's 400, or undefined when it keeps every rule: the document's schemas, and
 * well-formed Unicode in every string (see {@link illFormedStrings}).
 */
function validated(validate: ValidateFunction, value: unknown, part: 'path' | 'query' | 'body'): Refusal | undefined {
  const illFormed = illFormedStrings(value, part);
  if (illFormed.length > 0) return invalidPart(part, illFormed);
  if (validate(value)) return undefined;
  // Fields named within their part: the message already says which part.
  const issues = toIssues(validate.errors ?? [], value, part, { prefixFields: false });
  return invalidPart(
    part,
    issues.map((issue) => issue.message),
  );
}

/**
 * One problem per string, at any depth, that is not well-formed Unicode (a lone surrogate,
 * which JSON can carry as `\ud800`): no URL can carry it, so a name holding one could never be
 * addressed again. Property names count too. Fields are named within their part.
 */
export function illFormedStrings(value: unknown, part: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (typeof node === 'string') {
      if (!isWellFormed(node)) found.push(`${at || part}: must be well-formed Unicode (it holds a lone surrogate)`);
    } else if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, `${at}[${i}]`);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        const field = at ? `${at}.${key}` : key;
        if (!isWellFormed(key)) found.push(`${part}: a property name must be well-formed Unicode`);
        else visit(item, field);
      }
    }
  };
  visit(value, '');
  return found;
}

function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The offset of the first `{` or `[` that nests deeper than `max`, or -1. It stops there, so a
 * body nested millions of levels deep costs a few dozen characters, not a parse that builds
 * them all. String contents (escapes included) are skipped; other syntax is left to JSON.parse.
 */
function nestingBeyond(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}

/**
 * `/profiles/{id_or_name}` → a pattern whose groups are the raw (still encoded) segments. An
 * empty segment matches too, so that `/profiles/` is refused by the parameter's own rule
 * (`minLength`) rather than answered 404.
 */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '([^/]*)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

function headerValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header.join(', ') : header;
}

function clip(text: string): string {
  return text.length <= MAX_DETAIL_CHARS ? text : `${text.slice(0, MAX_DETAIL_CHARS)}… (${text.length} characters)`;
}
