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

/**
 * A part of a request (`root`: `path`, `query`, `body`) as it is sent: serialised once by
 * `JSON.stringify` (`toJSON` honoured, own enumerable properties only), parsed back from that text,
 * and that value checked (well-formed Unicode, then `validate`). Every attempt sends `text`, and the
 * URL is built from `value`, so what was checked is what goes out, whatever getters, Proxies or
 * `toJSON` would answer on another read. A getter, Proxy trap or `toJSON` that throws, a BigInt or
 * a cycle is a {@link ValidationError} (rule `json`) naming the field where it can be found.
 */
export function sendable<T>(
  validate: Validator<T>,
  data: unknown,
  root: string,
): { text: string | undefined; value: T } {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch {
    const field = unsendable({ '': data }, '', root, []) ?? root;
    const message = `${field}: is not JSON (a getter, Proxy or toJSON threw, a BigInt, a cycle)`;
    throw new ValidationError([{ field, rule: 'json', message }]);
  }
  // JSON.stringify gives no empty text: undefined (nothing to send) or JSON.
  const value = text && JSON.parse(text);
  // JSON.stringify writes a lone surrogate as a `\udxxx` escape (ES2019, well-formed JSON.stringify):
  // a text without one holds none, and only a text with one is walked for the field to name.
  if (text?.includes('\\ud')) wellFormed(value, root);
  check(validate, value, root);
  return { text, value };
}

/**
 * Where `JSON.stringify` throws on the property `key` of `holder` (at `field`), found by
 * walking it as `JSON.stringify` does; run only once it threw, for the message.
 */
function unsendable(holder: object, key: string, field: string, holders: object[]): string | undefined {
  try {
    let value = (holder as Record<string, unknown>)[key];
    const toJSON = (value as { toJSON?: unknown } | null)?.toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key);
    if (typeof value === 'bigint' || holders.includes(value as object)) return field;
    if (typeof value !== 'object' || value === null) return undefined;
    for (const name of Object.keys(value)) {
      const at = Array.isArray(value) ? `${field}[${name}]` : `${field}.${name}`;
      const found = unsendable(value, name, at, [...holders, value]);
      if (found) return found;
    }
  } catch {
    return field;
  }
  return undefined;
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
