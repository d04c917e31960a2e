import { toIssues, type Validator } from '@browser-cloud/api-types';
import { InvalidResponseError, ValidationError, type ValidationIssue } from './errors.js';

/**
 * Runs one of the validators generated from the OpenAPI document and throws when the value
 * breaks the document's rules, in messages of `@browser-cloud/api-types`' `toIssues` (the
 * wording the sandbox uses too). `root` names the value: `body`, `query`, `path`, `event`. What
 * is sent throws a {@link ValidationError}. An answer, read with a tolerant validator
 * (`validateReceived…`: unknown properties allowed), throws an {@link InvalidResponseError}
 * opened by `answer`, its issues cleaned by `scrub` (they may quote the answer's values).
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
 * `.` and `..` cannot go at all: fetch's URL parser removes them as dot segments, even
 * percent-encoded (`%2E%2E`), so a rename of the profile named `..` would be sent as
 * `PATCH /`. They are refused before sending, saying to address the `resource` by its ID. So is
 * a value that is not well-formed Unicode (see {@link wellFormed}).
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
