// Parameter values as they go into a request: a query, a path segment, a header, written as the
// parameter's `style`/`explode` say (OpenAPI 3.1, "Style Values"). The generated calls pass the
// styles the document gives (from the operations model); the sandbox reads them back the same way
// (`readQueryValues` of @browser-cloud/openapi-document).
import { ValidationError } from './errors.js';
import { wellFormed } from './validation.js';

/** How a parameter is written; without one, a query parameter is `form` and exploded. */
export interface ParameterStyle {
  readonly style: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'simple';
  readonly explode: boolean;
}

const FORM: ParameterStyle = { style: 'form', explode: true };
const DELIMITER = { form: ',', simple: ',', spaceDelimited: '%20', pipeDelimited: '|', deepObject: ',' } as const;

/** A scalar as text: a string as it is, a number or boolean as JSON writes it; anything else as JSON. */
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * `name=value` pairs, percent-encoded, for one query parameter: an array repeated (exploded) or
 * joined by its style's delimiter, an object as its properties (form, exploded), as
 * `name[key]=value` (deepObject) or as `key,value` pairs; nothing for undefined, null or `[]`.
 */
function queryPairs(name: string, value: unknown, { style, explode }: ParameterStyle): string[] {
  if (value == null) return [];
  const encoded = encodeURIComponent(name);
  const pair = (key: string, item: unknown) => `${key}=${encodeURIComponent(text(item))}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    if (explode) return value.map((item) => pair(encoded, item));
    return [`${encoded}=${value.map((item) => encodeURIComponent(text(item))).join(DELIMITER[style])}`];
  }
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (style === 'deepObject')
      return entries.map(([key, item]) => pair(`${encoded}[${encodeURIComponent(key)}]`, item));
    if (explode) return entries.map(([key, item]) => pair(encodeURIComponent(key), item));
    const parts = entries.flatMap(([key, item]) => [key, text(item)]).map(encodeURIComponent);
    return [`${encoded}=${parts.join(DELIMITER[style])}`];
  }
  return [pair(encoded, value)];
}

/**
 * An operation's path with its query, written as `styles` say by parameter (form, exploded, for
 * one it does not name): `colors=red&colors=blue`, or `colors=red,blue` unexploded. Undefined and
 * null values are left out, as openapi-fetch leaves them out.
 */
export function withQuery(path: string, query: object, styles: Readonly<Record<string, ParameterStyle>> = {}): string {
  const search = Object.entries(query).flatMap(([name, value]) => {
    wellFormed(value, `query.${name}`);
    return queryPairs(name, value, Object.hasOwn(styles, name) ? styles[name]! : FORM);
  });
  return search.length > 0 ? `${path}?${search.join('&')}` : path;
}

/**
 * A value in the `simple` style (a path segment, a header): an array's items, or an object's
 * `key,value` (`key=value` exploded) pairs, joined by commas; each part through `encode`.
 */
export function simpleValue(value: unknown, explode: boolean, encode: (part: string) => string): string {
  if (Array.isArray(value)) return value.map((item) => encode(text(item))).join(',');
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (explode) return entries.map(([key, item]) => `${encode(key)}=${encode(text(item))}`).join(',');
    return entries.flatMap(([key, item]) => [encode(key), encode(text(item))]).join(',');
  }
  return encode(text(value));
}

/**
 * A path parameter of a scalar schema as it goes into the URL, through `encodeURIComponent` as
 * openapi-fetch does (`segment`, when {@link styledPathSegment} wrote it already). `.` and `..`
 * are refused, saying to address the `resource` by its ID: fetch's URL parser drops them as dot
 * segments, even percent-encoded. Its Unicode is checked before, with the value (`sendable`, or
 * the raw client's `wellFormed`).
 */
export function pathSegment(
  name: string,
  value: unknown,
  resource: string,
  segment = encodeURIComponent(String(value)),
): string {
  if (segment === '.' || segment === '..') {
    const field = `path.${name}`;
    const message = `${field}: ${JSON.stringify(segment)} cannot be sent in a URL (it drops dot segments); address the ${resource} by its ID`;
    throw new ValidationError([{ field, rule: 'pathSegment', message }]);
  }
  return segment;
}

/**
 * A path parameter of an array or object schema, in the `simple` style (an array's items joined
 * by commas, an object's `key,value` or, exploded, `key=value` pairs), each part encoded and
 * refused as {@link pathSegment} says. Apart so that an app whose paths are scalars bundles none of it.
 */
export function styledPathSegment(name: string, value: unknown, resource: string, explode: boolean): string {
  return pathSegment(name, value, resource, simpleValue(value, explode, encodeURIComponent));
}

/**
 * The header parameters of a call as request headers, in the `simple` style. A value a header
 * cannot carry (a line break, a control character, a character beyond Latin-1) is refused, naming
 * the parameter, rather than left to fetch's TypeError.
 */
export function headerValues(
  values: Readonly<Record<string, unknown>> | undefined,
  explode: Readonly<Record<string, boolean>> = {},
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(values ?? {})) {
    if (value == null) continue;
    const field = `header.${name}`;
    const written = simpleValue(value, Object.hasOwn(explode, name) && explode[name] === true, (part) => part);
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(written)) {
      const message = `${field}: must be text a header can carry (no line breaks, control characters or characters beyond Latin-1)`;
      throw new ValidationError([{ field, rule: 'headerValue', message }]);
    }
    headers[name] = written;
  }
  return headers;
}
