const REDACTED = '[REDACTED]';

/** Replaces every occurrence of `secret` in `text`. */
export function redact(text: string, secret: string): string {
  return secret && text.includes(secret) ? text.split(secret).join(REDACTED) : text;
}

/**
 * `cause` without `secret`, for attaching to an error the caller will see. An Error that
 * mentions the secret anywhere (message, stack, fields, nested causes) is copied with the same
 * prototype (a TypeError stays a TypeError) and its primitive fields such as `code`, with the
 * secret replaced; object-valued fields (a Request, headers) are dropped from the copy, arrays
 * of errors (AggregateError) are redacted element by element. Anything else that mentions the
 * secret becomes a redacted string.
 */
export function redactCause(cause: unknown, secret: string, depth = 0): unknown {
  if (!secret || !mentions(cause, secret, depth)) return cause;
  if (typeof cause === 'string') return redact(cause, secret);
  if (!(cause instanceof Error)) return REDACTED;
  const source = cause as Error & Record<string, unknown>;
  const copy = Object.create(Object.getPrototypeOf(cause) as object) as Record<string, unknown>;
  for (const key of new Set(['name', 'message', 'stack', ...Object.keys(cause)])) {
    const value = source[key];
    const clean =
      typeof value === 'string'
        ? redact(value, secret)
        : Array.isArray(value)
          ? value.map((item) => redactCause(item, secret, depth + 1))
          : value !== null && typeof value === 'object'
            ? undefined
            : value;
    if (clean === undefined) continue;
    Object.defineProperty(copy, key, {
      value: clean,
      writable: true,
      configurable: true,
      enumerable: Object.prototype.propertyIsEnumerable.call(cause, key),
    });
  }
  if ('cause' in cause) {
    Object.defineProperty(copy, 'cause', {
      value: redactCause(cause.cause, secret, depth + 1),
      configurable: true,
      writable: true,
    });
  }
  return copy;
}

/** Whether `value` could reveal `secret`; objects other than errors and arrays count as yes. */
function mentions(value: unknown, secret: string, depth: number): boolean {
  if (typeof value === 'string') return value.includes(secret);
  if (value === null || typeof value !== 'object') return false;
  if (depth > 8) return true;
  if (Array.isArray(value)) return value.some((item) => mentions(item, secret, depth + 1));
  if (!(value instanceof Error)) return true;
  const fields = value as unknown as Record<string, unknown>;
  return ['message', 'stack', 'cause', ...Object.keys(value)].some((key) => mentions(fields[key], secret, depth + 1));
}
