import { toIssues, type Validator } from '@browser-cloud/api-types';
import { InvalidResponseError, ValidationError, type ValidationIssue } from './errors.js';

export { toIssues };

/**
 * Runs one of the validators generated from the OpenAPI document and throws a
 * {@link ValidationError} when the value breaks the document's rules. `root` names the value in
 * messages: `body`, `query`, `path` or `browser_telemetry`. The messages are
 * `@browser-cloud/api-types`' `toIssues`, the wording the sandbox uses too.
 */
export function check<T>(validate: Validator<T>, value: unknown, root: string): asserts value is T {
  if (!validate(value)) throw new ValidationError(toIssues(validate.errors ?? [], value, root));
}

/**
 * A path parameter as it goes into the URL, through `encodeURIComponent` as openapi-fetch does.
 * `.` and `..` cannot go at all: fetch's URL parser removes them as dot segments, even
 * percent-encoded (`%2E%2E`), so a rename of the profile named `..` would be sent as
 * `PATCH /`. They are refused before sending, saying to address the `resource` by its ID. So is
 * a value that is not well-formed Unicode (see {@link wellFormed}).
 */
export function pathSegment(name: string, value: string, resource: string): string {
  wellFormed(value, `path.${name}`);
  if (value === '.' || value === '..') {
    const message = `path.${name}: ${JSON.stringify(value)} cannot be sent in a URL (URLs drop "." and ".." path segments, even percent-encoded); address the ${resource} by its ID`;
    throw new ValidationError([{ field: `path.${name}`, rule: 'pathSegment', message }]);
  }
  return encodeURIComponent(value);
}

/**
 * Reads an answer with one of the generated tolerant validators (`validateReceived…`: unknown
 * properties allowed) and throws an {@link InvalidResponseError} when a required property is
 * missing or a known one has the wrong type. `what` opens the message, `root` names the value
 * in it (`body`, `event`); `scrub` cleans the issues, which may quote the answer's values.
 */
export function checkReceived<T>(
  validate: Validator<T>,
  value: unknown,
  root: string,
  what: string,
  scrub: (issues: ValidationIssue[]) => ValidationIssue[] = (issues) => issues,
): asserts value is T {
  if (!validate(value)) throw new InvalidResponseError(what, scrub(toIssues(validate.errors ?? [], value, root)));
}

/** How deep {@link wellFormed} walks; the document's request bodies nest a few levels. */
const MAX_WALK_DEPTH = 64;

/**
 * Refuses, before sending, a string that is not well-formed Unicode: one holding a lone
 * surrogate (U+D800 to U+DFFF not in a pair), which `encodeURIComponent` cannot encode
 * (URIError) and JSON carries only as an escape (`"\ud800"`). The document's `info.description`
 * states the rule for every component: no name, ID or value the service stores may hold one.
 * `value` is a string or a JSON value (an operation's body), walked with its property names;
 * `field` names it (`path.id`, `query.path`, `body`). Throws a {@link ValidationError} with rule
 * `wellFormed` naming the first such string and its lone surrogate.
 */
export function wellFormed(value: unknown, field: string, depth = 0): void {
  if (typeof value === 'string') {
    if (isWellFormed(value)) return;
    const lone = [...value].find((char) => char.length === 1 && char >= '\ud800' && char <= '\udfff')!;
    const unit = lone.charCodeAt(0).toString(16).toUpperCase();
    const message = `${field}: must be well-formed Unicode (it holds a lone surrogate, U+${unit})`;
    throw new ValidationError([{ field, rule: 'wellFormed', message }]);
  }
  if (typeof value !== 'object' || value === null || depth >= MAX_WALK_DEPTH) return;
  const array = Array.isArray(value);
  for (const [key, item] of Object.entries(value)) {
    if (!array) wellFormed(key, `${field} (a property name)`, depth + 1);
    wellFormed(item, array ? `${field}[${key}]` : `${field}.${key}`, depth + 1);
  }
}

/** `String.prototype.isWellFormed` (ES2024; every runtime the client supports has it). */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
