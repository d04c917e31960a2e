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
