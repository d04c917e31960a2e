import { toIssues, type Validator } from '@browser-cloud/api-types';
import { InvalidResponseError, ValidationError, type ValidationIssue } from './errors.js';

/** A generated validator of what is sent or read, and the schema's name for messages. */
export interface Reader<T> {
  readonly validate: Validator<T>;
  readonly name: string;
}

/**
 * Runs a validator generated from the document and throws, in the words of `toIssues` (the
 * sandbox's too), when the value breaks its rules: a {@link ValidationError} for what is sent; for
 * an answer read with a tolerant validator (`validateReceived…`), an {@link InvalidResponseError}
 * opened by `answer`, its issues cleaned by `scrub` (they may quote the answer's values). `root`
 * names the value: `body`, `query`, `path`, `event`.
 */
export function check<T>(
  validate: Validator<T>,
  value: unknown,
  root: string,
  answer?: string,
  scrub: (issues: ValidationIssue[]) => ValidationIssue[] = (issues) => issues,
): asserts value is T {
  if (validate(value)) return;
  const issues = toIssues(validate.errors ?? [], value, root);
  throw answer === undefined ? new ValidationError(issues) : new InvalidResponseError(answer, scrub(issues));
}

/**
 * A path parameter as it goes into the URL, through `encodeURIComponent` as openapi-fetch does.
 * `.` and `..` are refused, saying to address the `resource` by its ID: fetch's URL parser drops
 * them as dot segments, even percent-encoded. So is a value that is not well-formed Unicode.
 */
export function pathSegment(name: string, value: string, resource: string): string {
  const field = `path.${name}`;
  wellFormed(value, field);
  if (value === '.' || value === '..') {
    const message = `${field}: ${JSON.stringify(value)} cannot be sent in a URL (it drops dot segments); address the ${resource} by its ID`;
    throw new ValidationError([{ field, rule: 'pathSegment', message }]);
  }
  return encodeURIComponent(value);
}

/** How deep {@link wellFormed} walks; the document's request bodies nest a few levels. */
const MAX_WALK_DEPTH = 64;

/**
 * Refuses, before sending, a string holding a lone surrogate, which `encodeURIComponent` cannot
 * encode and the document's `info.description` forbids in every value the service stores.
 * `value` is a string or a JSON value (a body, its property names included); `field` names it.
 * Throws a {@link ValidationError} with rule `wellFormed` naming the first one and its surrogate.
 */
export function wellFormed(value: unknown, field: string, depth = 0): void {
  if (typeof value === 'string') {
    // With the `u` flag a pair is one code point; only a lone surrogate is of category Cs.
    const lone = /\p{Cs}/u.exec(value)?.[0];
    if (!lone) return;
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
