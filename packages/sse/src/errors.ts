/**
 * What went wrong (the README's error table says when, with which fields). `idle-timeout` is never
 * thrown on its own: it is the `cause` of `retries-exhausted` or the error `onRetry` is told.
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

/** Optional facts attached to an {@link SseError} (see its fields), and the underlying `cause`. */
export type SseErrorDetails = Partial<Omit<SseError, keyof Error | 'type'>> & { readonly cause?: unknown };

/** Every failure this package raises on purpose; which fields are set depends on its type. */
export class SseError extends Error {
  override readonly name = 'SseError';
  readonly type: SseErrorType;
  /** Limit that was exceeded, in bytes (`line-too-long`, `event-too-large`). */
  declare readonly limit?: number | undefined;
  /** Size reached when the limit tripped, in bytes; a lower bound for lines still arriving. */
  declare readonly size?: number | undefined;
  /** HTTP status (`bad-status`, `bad-content-type`, `retries-exhausted` after a status). */
  declare readonly status?: number | undefined;
  /** Response `Content-Type` header as sent, or `null` when absent. */
  declare readonly contentType?: string | null | undefined;
  /** First bytes (at most 512) of a rejected response body, decoded as UTF-8. */
  declare readonly bodyExcerpt?: string | undefined;
  /** Raw data, type and last event ID of the event that failed to parse or validate. */
  declare readonly data?: string | undefined;
  declare readonly event?: string | undefined;
  declare readonly id?: string | undefined;
  /** Parsed JSON that the validator rejected (`invalid-data`). */
  declare readonly value?: unknown;
  /** Whatever the validator reported (e.g. Ajv's `errors` array). */
  declare readonly validationErrors?: unknown;
  /** Consecutive failed attempts (`retries-exhausted`). */
  declare readonly attempts?: number | undefined;

  constructor(type: SseErrorType, message: string, details: SseErrorDetails = {}) {
    const { cause, ...facts } = details;
    super(message, cause === undefined ? undefined : { cause });
    this.type = type;
    // Only the facts given, so `toEqual` and logs stay uncluttered; `value` even when undefined,
    // since that can be what the validator rejected.
    for (const [key, value] of Object.entries(facts)) {
      if (value !== undefined || key === 'value') (this as Record<string, unknown>)[key] = value;
    }
  }
}

/** Narrows `error` to an {@link SseError}, optionally of one of the given types. */
export function isSseError<K extends SseErrorType>(
  error: unknown,
  ...types: K[]
): error is SseError & { readonly type: K } {
  return error instanceof SseError && (types.length === 0 || (types as SseErrorType[]).includes(error.type));
}
