/**
 * Every failure this package raises on purpose is an {@link SseError}; callers
 * switch on {@link SseError.type} instead of parsing messages.
 *
 * - `line-too-long`: a line exceeded `maxLineBytes` (UTF-8 bytes, terminator excluded).
 * - `event-too-large`: an event's data exceeded `maxEventBytes` (UTF-8 bytes).
 * - `bad-status`: the server answered a status that is neither 200, 204 nor retryable.
 * - `bad-content-type`: a 200 response whose media type is not `text/event-stream`.
 * - `network`: reading the body failed (only from {@link readEventStream};
 *   {@link connectEventStream} reconnects instead).
 * - `idle-timeout`: no bytes arrived within `idleTimeout` (seen as the `cause`
 *   of a `retries-exhausted` error or in `onRetry`, never thrown on its own).
 * - `retries-exhausted`: `maxRetries` consecutive reconnect attempts failed.
 * - `invalid-json`: an event's data is not JSON.
 * - `invalid-data`: an event's JSON did not pass the validator.
 */
export type SseErrorType =
  | 'line-too-long'
  | 'event-too-large'
  | 'bad-status'
  | 'bad-content-type'
  | 'network'
  | 'idle-timeout'
  | 'retries-exhausted'
  | 'invalid-json'
  | 'invalid-data';

/** Optional facts attached to an {@link SseError}; which ones are set depends on its type. */
export interface SseErrorDetails {
  /** Limit that was exceeded, in bytes (`line-too-long`, `event-too-large`). */
  readonly limit?: number | undefined;
  /** Size reached when the limit tripped, in bytes; a lower bound for lines still arriving. */
  readonly size?: number | undefined;
  /** HTTP status (`bad-status`, `bad-content-type`, `retries-exhausted` after a status). */
  readonly status?: number | undefined;
  /** Response `Content-Type` header as sent, or `null` when absent. */
  readonly contentType?: string | null | undefined;
  /** First bytes (at most 512) of a rejected response body, decoded as UTF-8. */
  readonly bodyExcerpt?: string | undefined;
  /** Raw event data that failed to parse or validate (`invalid-json`, `invalid-data`). */
  readonly data?: string | undefined;
  /** SSE event type of the offending event (`invalid-json`, `invalid-data`). */
  readonly event?: string | undefined;
  /** Last event ID of the offending event (`invalid-json`, `invalid-data`). */
  readonly id?: string | undefined;
  /** Parsed JSON that the validator rejected (`invalid-data`). */
  readonly value?: unknown;
  /** Whatever the validator reported (e.g. Ajv's `errors` array). */
  readonly validationErrors?: unknown;
  /** Consecutive failed attempts (`retries-exhausted`). */
  readonly attempts?: number | undefined;
  /** Underlying error, if any. */
  readonly cause?: unknown;
}

/** The detail keys copied onto an {@link SseError} (all but `cause`, which goes to `Error`). */
const DETAIL_KEYS = [
  'limit',
  'size',
  'status',
  'contentType',
  'bodyExcerpt',
  'data',
  'event',
  'id',
  'value',
  'validationErrors',
  'attempts',
] as const;

export class SseError extends Error {
  override readonly name = 'SseError';
  readonly type: SseErrorType;
  declare readonly limit?: number;
  declare readonly size?: number;
  declare readonly status?: number;
  declare readonly contentType?: string | null;
  declare readonly bodyExcerpt?: string;
  declare readonly data?: string;
  declare readonly event?: string;
  declare readonly id?: string;
  declare readonly value?: unknown;
  declare readonly validationErrors?: unknown;
  declare readonly attempts?: number;

  constructor(type: SseErrorType, message: string, details: SseErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.type = type;
    // Copy only the keys that were given so `toEqual`/logging stay uncluttered;
    // `value` is copied even when it is `undefined`, since that can be what the validator rejected.
    const target = this as Record<string, unknown>;
    for (const key of DETAIL_KEYS) {
      if (details[key] !== undefined || (key === 'value' && key in details)) target[key] = details[key];
    }
  }
}

/**
 * The `line-too-long` / `event-too-large` error, worded alike for both limits:
 * "`subject` exceeds `option` (`limit` bytes)".
 */
export function limitError(
  type: 'line-too-long' | 'event-too-large',
  subject: string,
  option: string,
  limit: number,
  size: number,
): SseError {
  return new SseError(type, `${subject} exceeds ${option} (${limit} bytes)`, { limit, size });
}

/** Narrows `error` to an {@link SseError}, optionally of one of the given types. */
export function isSseError<K extends SseErrorType>(
  error: unknown,
  ...types: K[]
): error is SseError & { readonly type: K } {
  return error instanceof SseError && (types.length === 0 || (types as SseErrorType[]).includes(error.type));
}
