import { toIssues, type Validator } from '@browser-cloud/api-types';
import { InvalidResponseError, ValidationError } from './errors.js';

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
 * `PATCH /`. They are refused before sending, saying to address the `resource` by its ID.
 */
export function pathSegment(name: string, value: string, resource: string): string {
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
 * in it (`body`, `event`).
 */
export function checkReceived<T>(
  validate: Validator<T>,
  value: unknown,
  root: string,
  what: string,
): asserts value is T {
  if (!validate(value)) throw new InvalidResponseError(what, toIssues(validate.errors ?? [], value, root));
}
