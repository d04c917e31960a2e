const REDACTED = '[REDACTED]';

/** Causes deeper than this in a `cause` chain are left out of a redacted copy. */
export const MAX_CAUSE_DEPTH = 8;
/** An AggregateError's copy keeps at most this many of its `errors`. */
export const MAX_AGGREGATE_ERRORS = 16;

/** Replaces every occurrence of `secret` in `text`. */
export function redact(text: string, secret: string): string {
  return secret && text.includes(secret) ? text.split(secret).join(REDACTED) : text;
}

/** What Node and undici say failed and where: copied (enumerable, as on Node's system errors) if strings or numbers. */
const SAFE_FIELDS = ['code', 'errno', 'syscall', 'address', 'port', 'hostname'] as const;

/** Built-in error classes whose prototype a copy may take; anything else becomes an Error. */
const BUILT_IN_ERRORS = [AggregateError, TypeError, RangeError, SyntaxError, ReferenceError, URIError, EvalError];

/**
 * `cause` rebuilt without `secret`: an Error becomes one of a built-in class with only its name,
 * message, stack, {@link SAFE_FIELDS}, `cause` (to {@link MAX_CAUSE_DEPTH}; a cycle ends the chain)
 * and an AggregateError's `errors` (at most {@link MAX_AGGREGATE_ERRORS}), every string redacted;
 * anything else it holds (a Request, hidden fields) is left behind. Another object keeps its safe fields and message.
 */
export function redactCause(cause: unknown, secret: string): unknown {
  return rebuild(cause, secret, 0, new Set());
}

function rebuild(value: unknown, secret: string, depth: number, seen: Set<object>): unknown {
  if (typeof value === 'string') return redact(value, secret);
  if (typeof value !== 'object' || value === null) return typeof value === 'function' ? undefined : value;
  // A cycle, or a chain past the bound, ends here.
  if (seen.has(value) || depth > MAX_CAUSE_DEPTH) return undefined;
  seen.add(value);
  const source = value as Record<string, unknown>;
  const isError = value instanceof Error;
  const builtIn = BUILT_IN_ERRORS.find((Class) => value instanceof Class) ?? Error;
  const copy: Record<string, unknown> = isError ? Object.create(builtIn.prototype) : {};
  const hidden = (key: string, field: unknown): void => {
    Object.defineProperty(copy, key, { value: field, writable: true, configurable: true, enumerable: !isError });
  };
  // A name only where it is not the class's (AbortError), a stack only on an error.
  for (const key of ['name', 'message', 'stack']) {
    const field = read(source, key);
    if (typeof field === 'string' && field !== copy[key] && (isError || key !== 'stack')) {
      hidden(key, redact(field, secret));
    }
  }
  for (const key of SAFE_FIELDS) {
    const field = read(source, key);
    if (typeof field === 'string') copy[key] = redact(field, secret);
    else if (typeof field === 'number') copy[key] = field;
  }
  const errors = value instanceof AggregateError ? read(source, 'errors') : undefined;
  if (Array.isArray(errors)) {
    hidden(
      'errors',
      errors
        .slice(0, MAX_AGGREGATE_ERRORS)
        .map((item) => rebuild(item, secret, depth + 1, seen))
        .filter((item) => item !== undefined),
    );
  }
  const inner = rebuild(read(source, 'cause'), secret, depth + 1, seen);
  if (inner !== undefined) hidden('cause', inner);
  return copy;
}

/** A property read that survives a throwing getter or proxy. */
function read(source: Record<string, unknown>, key: string): unknown {
  try {
    return source[key];
  } catch {
    return undefined;
  }
}

/** Response headers with the secret replaced in values; a header whose name holds it is left out. */
export function redactHeaders(headers: Headers, secret: string): Headers {
  const clean = new Headers();
  for (const [name, value] of headers) {
    if (!secret || !name.includes(secret.toLowerCase())) clean.append(name, redact(value, secret));
  }
  return clean;
}

/** Nesting deeper than this in a JSON answer is not the API's; it is refused rather than walked. */
export const MAX_JSON_DEPTH = 256;

/**
 * The shortest token scrubbed from answers: a shorter one (`test`, typed against a mock) is no
 * secret, and `test-agent` would come back as `[REDACTED]-agent`. Errors are scrubbed of any.
 */
export const MIN_SECRET_LENGTH = 16;

/**
 * A JSON value (own properties only) with `secret` replaced in every string: in the client's own
 * values whatever its length; in an `answer` (a Profile, an event) only one of {@link MIN_SECRET_LENGTH}
 * characters or more, and a property whose name holds it is left out (a rewritten name would be another).
 * Redacted in place: every caller hands in a value of its own, freshly parsed or built, and an answer
 * without the secret (nearly all) costs a walk and no copy.
 * @throws RangeError past {@link MAX_JSON_DEPTH} levels, whatever the secret.
 */
export function redactJson<T>(value: T, secret: string, answer = false, depth = 0): T {
  const hidden = answer && secret.length < MIN_SECRET_LENGTH ? '' : secret;
  if (typeof value === 'string') return redact(value, hidden) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_JSON_DEPTH) throw new RangeError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    // Assigned to an own key: a `__proto__` one of JSON stays a property, the prototype untouched.
    if (answer && hidden && key.includes(hidden)) delete record[key];
    else record[key] = redactJson(record[key], hidden, answer, depth + 1);
  }
  return value;
}
