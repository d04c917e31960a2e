// One HTTP request the engine sends, and how to turn it into a URL and a `curl` command.
import { type ParameterStyle, withQuery } from '@browser-cloud/client';
import type { Operation } from '@browser-cloud/openapi-document';

export interface RequestCase {
  method: string;
  /** Path parameters, raw (encoded when the URL is built). */
  pathParams: Record<string, string>;
  /** The path template of the operation, e.g. `/profiles/{id_or_name}`. */
  pathTemplate: string;
  /** Query parameters with their schema types (booleans stay booleans until serialised). */
  query: Record<string, unknown>;
  /** How each query parameter is written, as the document says (`style`, `explode`); form and exploded if absent. */
  queryStyles?: Readonly<Record<string, ParameterStyle>> | undefined;
  headers: Record<string, string>;
  /** The body as sent (already serialised), or undefined for none. */
  body: string | undefined;
  /** Whether the bearer token is sent. */
  withToken: boolean;
  /** For invalid cases: the one rule the request breaks. */
  rule?: string | undefined;
}

/** The parts of a request that vary; the rest follows from the operation. */
export interface RequestParts {
  path: Record<string, string>;
  query?: Record<string, unknown> | undefined;
  /** As a value, serialised as JSON. */
  body?: unknown;
  headers?: Record<string, string> | undefined;
}

/** A request of `operation`: Accept from its success answer, Content-Type from its body when one is sent. */
export function requestOf(operation: Operation, parts: RequestParts): RequestCase {
  return {
    method: operation.method.toUpperCase(),
    pathTemplate: operation.path,
    pathParams: parts.path,
    query: parts.query ?? {},
    queryStyles: Object.fromEntries(
      (operation.query?.parameters ?? []).map((p) => [p.name, p.serialization as ParameterStyle]),
    ),
    headers: {
      ...(operation.success?.mediaType ? { Accept: operation.success.mediaType } : {}),
      ...(parts.body !== undefined && operation.body ? { 'Content-Type': operation.body.mediaType } : {}),
      ...parts.headers,
    },
    body: parts.body === undefined ? undefined : JSON.stringify(parts.body),
    withToken: true,
  };
}

/** The case's path and query, the query written as the client writes it (an array by its style). */
export function pathOf(c: RequestCase): string {
  const path = c.pathTemplate.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(c.pathParams[name] ?? ''));
  return withQuery(path, c.query, c.queryStyles);
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A `curl` command that sends the case again. The token is never written out: the command reads it
 * from `$API_TOKEN`, unless a `shownToken` that is no secret (a wrong one, of plain characters) is given.
 */
export function toCurl(c: RequestCase, baseUrl: string, shownToken = '$API_TOKEN'): string {
  const parts = ['curl', '-sS', '-i', '-X', c.method, shellQuote(`${baseUrl}${pathOf(c)}`)];
  if (c.withToken) parts.push('-H', `"Authorization: Bearer ${shownToken}"`);
  for (const [name, value] of Object.entries(c.headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (c.body !== undefined) parts.push('--data-raw', shellQuote(c.body));
  return parts.join(' ');
}
