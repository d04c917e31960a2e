import { errorFromResponse } from './error-body.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  ApiError,
  BrowserCloudError,
  describeConnectionFailure,
} from './errors.js';
import { redactCause } from './redact.js';
import { failedBeforeSending, isRetryableStatus, retryDelay } from './retry.js';
import { type FetchLike, PendingRequest } from './transport.js';

export type { FetchLike } from './transport.js';

/** Per-call options, accepted as the last argument of every operation. */
export interface RequestOptions {
  /** Aborts the call, including a wait before a retry; the call rejects with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
  /** Time allowed for each attempt, up to the response headers and the JSON body. Default: the client's. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default: the client's (2). */
  maxRetries?: number | undefined;
  /** Extra request headers for this call. */
  headers?: Record<string, string> | undefined;
}

/** What an operation needs from its client. */
export interface RequestContext {
  /** The fetch a caller injected, or undefined for the global one. */
  readonly fetch: FetchLike | undefined;
  /** Sends what openapi-fetch built (see {@link transport}). */
  readonly send: (request: Request | PendingRequest) => Promise<Response>;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** The bearer token, only to scrub it from what errors carry. */
  readonly secret: string;
}

/** What one attempt hands to openapi-fetch besides the operation's own params and body. */
export interface AttemptInit {
  signal: AbortSignal;
  headers?: Record<string, string>;
  fetch: FetchLike;
  Request: typeof Request;
}

/** One operation as the retry loop sees it. */
export interface Operation<T> {
  /** Sends one attempt through openapi-fetch. */
  send(init: AttemptInit): Promise<{ data?: T; error?: unknown; response: Response }>;
  /**
   * Whether another attempt is harmless once the server may have acted on this one. False for
   * the login: after any response, or a failure that may follow sending, a second attempt
   * would meet 409; it is retried only when the connection certainly failed before sending.
   */
  readonly repeatable: boolean;
}

type Outcome<T> = { ok: true; data: T } | { ok: false; error: BrowserCloudError; retry: boolean; headers?: Headers };

/**
 * Runs `operation` with the client's timeout and retry policy: retries on connection errors,
 * timeouts, 408, 429 and 5xx (never 409), waiting as {@link retryDelay} says; a non-repeatable
 * operation is retried only on failures before sending.
 */
export async function execute<T>(
  context: RequestContext,
  operation: Operation<T>,
  options: RequestOptions = {},
): Promise<T> {
  const maxRetries = options.maxRetries ?? context.maxRetries;
  for (let retry = 0; ; retry++) {
    const outcome = await attempt(context, operation, options);
    if (outcome.ok) return outcome.data;
    if (!outcome.retry || retry >= maxRetries) throw outcome.error;
    await sleep(retryDelay(retry, outcome.headers), options.signal);
  }
}

async function attempt<T>(
  context: RequestContext,
  operation: Operation<T>,
  options: RequestOptions,
): Promise<Outcome<T>> {
  const { signal } = options;
  if (signal?.aborted) return { ok: false, error: new APIUserAbortError(), retry: false };
  const timeoutMs = options.timeoutMs ?? context.timeoutMs;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort);
  let responded = false;
  // A refused answer becomes its ApiError here, from a bounded read of its body: openapi-fetch
  // would read an error body whole, whatever its size.
  const fetchOnce: FetchLike = async (request) => {
    const response = await context.send(request);
    responded = true;
    if (response.ok) return response;
    throw await errorFromResponse(response, context.secret);
  };
  try {
    const sent = operation.send({
      signal: controller.signal,
      ...(options.headers ? { headers: options.headers } : {}),
      fetch: fetchOnce,
      Request: PendingRequest as unknown as typeof Request,
    });
    // The global fetch stops on its signal, body read included; racing the abort makes the
    // timeout hold for an injected fetch that ignores it.
    const { data } = await (context.fetch ? untilAborted(sent, controller.signal) : sent);
    return { ok: true, data: data as T };
  } catch (cause) {
    if (signal?.aborted) return { ok: false, error: new APIUserAbortError(), retry: false };
    if (timedOut) return { ok: false, error: new APIConnectionTimeoutError(timeoutMs), retry: operation.repeatable };
    if (cause instanceof ApiError) {
      return {
        ok: false,
        error: cause,
        retry: operation.repeatable && isRetryableStatus(cause.status),
        headers: cause.headers,
      };
    }
    const clean = redactCause(cause, context.secret);
    if (responded && cause instanceof SyntaxError) {
      return {
        ok: false,
        error: new BrowserCloudError('The response body is not valid JSON.', { cause: clean }),
        retry: false,
      };
    }
    const why = describeConnectionFailure(clean);
    const message = `${responded ? 'Connection error while reading the response' : 'Connection error'}${why ? `: ${why}` : '.'}`;
    return {
      ok: false,
      error: new APIConnectionError(message, { cause: clean }),
      retry: operation.repeatable || (!responded && failedBeforeSending(cause)),
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Waits `ms`, or rejects with APIUserAbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
