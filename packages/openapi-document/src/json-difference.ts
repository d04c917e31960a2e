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
export function jsonDifference(expected: unknown, actual: unknown, tokens: string[] = []): JsonDifference | undefined {
  const here = { pointer: formatPointer(tokens), expected, actual };
  if (isContainer(expected) && isContainer(actual)) {
    if (Array.isArray(expected) !== Array.isArray(actual)) return here;
    // A key on one side only compares `undefined`, which differs from everything.
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const found = jsonDifference(own(expected, key), own(actual, key), [...tokens, key]);
      if (found) return found;
    }
    return undefined;
  }
  const scalar = (value: unknown) =>
    value === null || ['string', 'boolean'].includes(typeof value) || Number.isFinite(value);
  return scalar(expected) && expected === actual ? undefined : here;
}

const own = (object: Record<string, unknown>, key: string) => (Object.hasOwn(object, key) ? object[key] : undefined);

/** An array or a plain object: what JSON parses into. */
function isContainer(value: unknown): value is Record<string, unknown> {
  if (Array.isArray(value)) return true;
  const prototype = typeof value === 'object' && value !== null ? Object.getPrototypeOf(value) : undefined;
  return prototype === Object.prototype || prototype === null;
}
