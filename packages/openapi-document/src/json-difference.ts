import { formatPointer } from './json-pointer.js';

/** Where two JSON values first differ, and what each holds there. */
export interface JsonDifference {
  readonly pointer: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/**
 * The first place, in document order of `expected`, where `actual` holds other JSON data:
 * another type, value or set of keys (key order aside). `undefined` when they are equal.
 * A value JSON cannot hold (NaN, a Date, a Buffer…) differs from everything.
 */
export function jsonDifference(expected: unknown, actual: unknown): JsonDifference | undefined {
  return differ(expected, actual, []);
}

function differ(expected: unknown, actual: unknown, tokens: string[]): JsonDifference | undefined {
  const here = (): JsonDifference => ({ pointer: formatPointer(tokens), expected, actual });
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return here();
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      if (i >= expected.length || i >= actual.length) {
        return { pointer: formatPointer([...tokens, String(i)]), expected: expected[i], actual: actual[i] };
      }
      const found = differ(expected[i], actual[i], [...tokens, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    for (const key of Object.keys(expected)) {
      if (!Object.hasOwn(actual, key))
        return { pointer: formatPointer([...tokens, key]), expected: expected[key], actual: undefined };
      const found = differ(expected[key], actual[key], [...tokens, key]);
      if (found) return found;
    }
    const extra = Object.keys(actual).find((key) => !Object.hasOwn(expected, key));
    return extra === undefined
      ? undefined
      : { pointer: formatPointer([...tokens, extra]), expected: undefined, actual: actual[extra] };
  }
  const scalar = (value: unknown) =>
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value));
  return scalar(expected) && scalar(actual) && expected === actual ? undefined : here();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
