import { toIssues, type Validator } from '@browser-cloud/api-types';
import { InvalidResponseError, ValidationError, type ValidationIssue } from './errors.js';

/** A generated validator of what is sent or read, and the schema's name for messages. */
export interface Reader<T> {
  readonly validate: Validator<T>;
  readonly name: string;
}

/**
 * Runs a generated validator; when `value` (named `root`: `body`, `path`…) breaks its rules, throws
 * the issues of `toIssues`: a {@link ValidationError} for what is sent, an {@link InvalidResponseError}
 * opened by `answer` for an answer, its issues cleaned by `scrub` (they may quote its values).
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

/** How deep {@link wellFormed} walks; the document's request bodies nest a few levels. */
const MAX_WALK_DEPTH = 64;

/**
 * Refuses (rule `wellFormed`) a string, or one in a JSON value (property names included), holding a
 * lone surrogate, which `encodeURIComponent` cannot encode and the document forbids in every value.
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
