// The one retry policy of the client's requests and of the reconnecting reader: which answers
// are retried, how long a server may ask to wait, and the backoff between attempts.

/** Reads a response header (a `Headers`, or anything with its `get`). */
export type HeaderSource = Pick<Headers, 'get'>;

/** Longest wait honoured from `Retry-After` / `retry-after-ms`, and from a server's `retry:`. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Least wait honoured from a server's `retry:`: below it, `retry: 0` would be a hot reconnect loop. */
export const MIN_SERVER_RETRY_MS = 500;
/** Largest delay `setTimeout` honours; larger ones fire at once. */
export const MAX_TIMER_DELAY = 2 ** 31 - 1;

/**
 * Whether an answer is worth another attempt: as the server's `x-should-retry: true|false` says,
 * else 408, 429 and 5xx. Never 409: a login flow in progress or a name taken stays so.
 */
export function isRetryable(status: number, headers?: HeaderSource): boolean {
  if (status === 409) return false;
  const verdict = headers?.get('x-should-retry')?.trim().toLowerCase();
  if (verdict === 'true') return true;
  if (verdict === 'false') return false;
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * How long the server asks to wait, in ms from `now` (not capped), or `undefined`: `retry-after-ms`
 * (decimals allowed) over `Retry-After` as RFC 9110 defines it (`1*DIGIT` seconds or an HTTP-date).
 */
export function parseRetryAfter(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms !== undefined && /^\d+(?:\.\d+)?$/.test(ms)) return Number(ms);
  const text = headers.get('retry-after')?.trim();
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a day name; requiring it
  // keeps Date.parse from accepting things like "1.5".
  if (!/^(?:mon|tue|wed|thu|fri|sat|sun)/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A server's SSE `retry:` value brought within [500 ms, 60 s], so that a typo cannot park the stream for days. */
export function clampServerRetry(milliseconds: number): number {
  return Math.min(Math.max(milliseconds, MIN_SERVER_RETRY_MS), MAX_RETRY_AFTER_MS);
}

export interface BackoffOptions {
  /** Upper bound of the exponential part, unless the base itself is larger. */
  maxDelay: number;
  /** Fraction of the delay added at random on top (0 = none). */
  jitter: number;
  /** Source of randomness in [0, 1). @defaultValue `Math.random` */
  random?: (() => number) | undefined;
  /** The server's requested wait (see {@link parseRetryAfter}), a minimum up to `maxRetryAfter` ({@link MAX_RETRY_AFTER_MS}). */
  retryAfter?: number | undefined;
  maxRetryAfter?: number | undefined;
}

/**
 * Delay before the `attempt`-th consecutive retry (1-based): `base` doubled per further attempt,
 * capped at `maxDelay` but never below the base, plus up to `jitter` of itself at random, so that
 * clients that failed together do not return together. Jitter only adds: the base may be the
 * server's `retry:`, a minimum wait.
 */
export function backoffDelay(attempt: number, base: number, options: BackoffOptions): number {
  const cap = Math.max(options.maxDelay, base);
  const exponential = Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
  let delay = exponential + exponential * options.jitter * (options.random ?? Math.random)();
  if (options.retryAfter !== undefined) {
    delay = Math.max(delay, Math.min(options.retryAfter, options.maxRetryAfter ?? MAX_RETRY_AFTER_MS));
  }
  return Math.min(Math.max(0, delay), MAX_TIMER_DELAY);
}

/** What to do with a response, per the status policy of {@link connectEventStream}. */
export type ResponseVerdict =
  | { readonly kind: 'open' }
  | { readonly kind: 'end' }
  | { readonly kind: 'retry'; readonly retryAfter: number | undefined }
  | { readonly kind: 'fail'; readonly type: 'bad-status' | 'bad-content-type' };

/**
 * 200 with a `text/event-stream` media type opens the stream; 204 ends it for good (the spec's
 * "stop reconnecting"); what {@link isRetryable} retries is retried; anything else fails for good.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#the-eventsource-interface
 */
export function classifyResponse(status: number, headers: HeaderSource, now?: number): ResponseVerdict {
  if (status === 200) {
    // The media type, compared case-insensitively, parameters ignored.
    const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return type === 'text/event-stream' ? { kind: 'open' } : { kind: 'fail', type: 'bad-content-type' };
  }
  if (status === 204) return { kind: 'end' };
  if (isRetryable(status, headers)) return { kind: 'retry', retryAfter: parseRetryAfter(headers, now) };
  return { kind: 'fail', type: 'bad-status' };
}
