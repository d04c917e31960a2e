import { type ErrorBody, toIssues, type Validator } from '@browser-cloud/api-types';
import type { OperationRules } from './operation-rules.js';

/** A request the front answers itself, with an Error body, instead of passing it to Prism. */
export interface Refusal {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RequestParts {
  readonly method: string;
  /** The request target as sent: path and query. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** `undefined` when the request has no body (none sent, or zero bytes). */
  readonly body: Buffer | undefined;
}

/** The longest detail message: a value quoted in a message must not make the answer large. */
const MAX_DETAIL_CHARS = 500;
const MAX_DETAILS = 20;

/**
 * What the document forbids in this request, checked in the order a server would: the route,
 * the token (401), then the path, the query and the body (400). `undefined` when it keeps every
 * rule the front knows, and Prism may answer it.
 */
export function checkRequest(rules: readonly OperationRules[], request: RequestParts): Refusal | undefined {
  const { pathname, search } = splitTarget(request.url);
  const matches = rules
    .map((rule) => ({ rule, groups: rule.pattern.exec(pathname) }))
    .filter((m): m is { rule: OperationRules; groups: RegExpExecArray } => m.groups !== null);
  if (matches.length === 0) {
    return {
      status: 404,
      body: { code: 'not_found', message: `no operation of the document has the path ${clip(pathname)}` },
    };
  }
  const match = matches.find((m) => m.rule.method === request.method);
  if (!match) {
    const allowed = [...new Set(matches.map((m) => m.rule.method))].join(', ');
    return {
      status: 405,
      headers: { allow: allowed },
      body: {
        code: 'method_not_allowed',
        message: `${request.method} is not an operation of ${clip(pathname)}; use ${allowed}`,
      },
    };
  }
  const { rule, groups } = match;
  if (rule.requiresToken && !hasBearerToken(request.headers['authorization'])) {
    return { status: 401, body: { code: 'unauthorized', message: 'missing or invalid authorization token' } };
  }
  return checkPath(rule, groups) ?? checkQuery(rule, search) ?? checkBody(rule, request);
}

function checkPath(rule: OperationRules, groups: RegExpExecArray): Refusal | undefined {
  const path: Record<string, string> = {};
  for (const [index, name] of rule.pathNames.entries()) {
    const raw = groups[index + 1] ?? '';
    try {
      path[name] = decodeURIComponent(raw);
    } catch {
      return invalid('path', [`${name}: is not valid percent-encoding`]);
    }
  }
  return validated(rule.validatePath, path, 'path');
}

function checkQuery(rule: OperationRules, search: string): Refusal | undefined {
  if (rule.validateQuery === undefined) return undefined;
  const query: Record<string, unknown> = {};
  const params = new URLSearchParams(search);
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name).map((text) => readAs(rule.queryTypes.get(name), text));
    // A repeated parameter is an array, which the schema's scalar type refuses.
    query[name] = values.length === 1 ? values[0] : values;
  }
  return validated(rule.validateQuery, query, 'query');
}

function checkBody(rule: OperationRules, request: RequestParts): Refusal | undefined {
  const { body } = request;
  if (rule.body === undefined) {
    return body === undefined ? undefined : invalid('body', ['body: is not allowed (the operation takes no body)']);
  }
  if (body === undefined) {
    return rule.body.required ? invalid('body', ['body: is required']) : undefined;
  }
  const contentType = headerValue(request.headers['content-type']);
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === undefined || !rule.body.mediaTypes.includes(mediaType)) {
    return invalid('headers', [
      `content-type: must be ${rule.body.mediaTypes.join(' or ')} (got ${contentType === undefined ? 'none' : JSON.stringify(clip(contentType))})`,
    ]);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return invalid('body', ['body: is not valid UTF-8']);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return invalid('body', [`body: is not valid JSON (${(error as Error).message})`]);
  }
  return validated(rule.body.validate, value, 'body');
}

const PART_MESSAGE = {
  path: 'the path is invalid',
  query: 'the query is invalid',
  body: 'the request body is invalid',
  headers: 'the request headers are invalid',
} as const;

function validated(validate: Validator<unknown>, value: unknown, part: 'path' | 'query' | 'body'): Refusal | undefined {
  if (validate(value)) return undefined;
  return invalid(
    part,
    // Fields named within their part, as the sandbox names them: the message already says which part.
    toIssues(validate.errors ?? [], value, part, { prefixFields: false }).map((issue) => issue.message),
  );
}

function invalid(part: keyof typeof PART_MESSAGE, messages: readonly string[]): Refusal {
  return {
    status: 400,
    body: {
      code: 'bad_request',
      message: PART_MESSAGE[part],
      details: messages.slice(0, MAX_DETAILS).map((message) => ({ code: 'invalid_input', message: clip(message) })),
    },
  };
}

/** Query text as the parameter's type reads it; text that does not read stays text, for the validator to refuse. */
function readAs(type: string | undefined, text: string): unknown {
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  return text;
}

/**
 * A mock cannot know real keys: like Prism, it checks that bearer credentials are there, whatever
 * they hold (the official SDK's tests send `Bearer My API Key`).
 */
function hasBearerToken(header: string | string[] | undefined): boolean {
  return typeof header === 'string' && /^Bearer +\S/i.test(header);
}

function headerValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header.join(', ') : header;
}

function splitTarget(url: string): { pathname: string; search: string } {
  const at = url.indexOf('?');
  return at === -1 ? { pathname: url, search: '' } : { pathname: url.slice(0, at), search: url.slice(at + 1) };
}

function clip(text: string): string {
  return text.length <= MAX_DETAIL_CHARS ? text : `${text.slice(0, MAX_DETAIL_CHARS)}… (${text.length} characters)`;
}
