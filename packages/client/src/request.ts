import { readBoundedBody } from '@browser-cloud/sse';
import { backoffDelay, isRetryable, parseRetryAfter } from '@browser-cloud/sse/retry-policy';
import { BACKOFF } from './config.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  BrowserCloudError,
  NotFoundError,
} from './errors.js';
import { describeConnectionFailure, failedBeforeSending } from './causes.js';
import type { FetchLike, Transport } from './transport.js';
import { check, type Reader } from './validation.js';

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

/** What an operation needs from its client: the options, and the transport, the only holder of the token. */
export interface RequestContext {
  readonly baseUrl: string;
  /** The fetch a caller injected, or undefined for the global one. */
  readonly fetch: FetchLike | undefined;
  readonly transport: Transport;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly headers: Record<string, string> | undefined;
}

/** One operation as the retry loop sees it; `T` is what its 2xx answer holds. */
export interface Operation<T> {
  readonly method: string;
  /** The path under the base URL, its query included (see `withQuery`). */
  readonly path: string;
  /** The JSON text of the body, sent as it is on every attempt (see `sendable`); none when undefined. */
  readonly body?: string | undefined;
  /** The operation's header parameters, written (see `headerValues`). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Whether another attempt is harmless once the server may have acted (the document's `x-repeatable`). */
  readonly repeatable: boolean;
  /** The tolerant reader of the 2xx body (`validateReceived<answer>`). */
  readonly answer?: Reader<T> | undefined;
  /** Whether this failure means the call is done after all (see {@link goneOnceApplied}). */
  readonly done?: ((error: BrowserCloudError) => boolean) | undefined;
}

/** A failed attempt: its error, and whether another attempt may follow. */
type Failure = { error: BrowserCloudError; retry: boolean };
const failure = (error: BrowserCloudError, retry = false): Failure => ({ error, retry });

/**
 * Runs the operation `prepare` gives (its checks reject the call) with the client's timeout and the
 * retry policy of `@browser-cloud/sse/retry-policy`; one not repeatable is retried only on failures before sending.
 */
export async function execute<T>(
  context: RequestContext,
  prepare: () => Operation<T>,
  options: RequestOptions = {},
): Promise<T> {
  const operation = prepare();
  const maxRetries = options.maxRetries ?? context.maxRetries;
  for (let retry = 0; ; retry++) {
    const outcome = await attempt<T>(context, operation, options);
    if ('data' in outcome) {
      const { answer } = operation;
      if (!answer) return undefined as T;
      const what = `The answer of ${operation.method} ${operation.path} cannot be read as a ${answer.name}`;
      check(answer.validate, outcome.data, 'body', what, context.transport.redactJson);
      return outcome.data;
    }
    const { error } = outcome;
    if (operation.done?.(error)) return undefined as T;
    if (!outcome.retry || retry >= maxRetries) throw error;
    const retryAfter = error instanceof APIError ? parseRetryAfter(error.headers) : undefined;
    await sleep(backoffDelay(retry + 1, BACKOFF.base, { ...BACKOFF, retryAfter }), options.signal);
  }
}

/**
 * The `done` of a DELETE answered without a body, one per call: a 404 once an earlier attempt may
 * have applied (a timeout, a connection lost after sending, a 5xx) means what it deletes is gone.
 */
export function goneOnceApplied(): (error: BrowserCloudError) => boolean {
  let applied = false;
  return (error) => {
    if (applied && error instanceof NotFoundError) return true;
    applied ||=
      error instanceof APIError
        ? error.status >= 500
        : error instanceof APIConnectionError && !failedBeforeSending(error.cause);
    return false;
  };
}

async function attempt<T>(
  context: RequestContext,
  operation: Operation<T>,
  options: RequestOptions,
): Promise<{ data: T } | Failure> {
  const { signal } = options;
  if (signal?.aborted) return failure(new APIUserAbortError());
  const { transport } = context;
  const timeoutMs = options.timeoutMs ?? context.timeoutMs;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  // Follows the caller's signal without a listener on it: calls sharing one signal would pass
  // Node's limit of 10 listeners per signal.
  const requestSignal = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
  let responded = false;
  const sent = (async () => {
    const { body } = operation;
    // As openapi-fetch merged them: the JSON content type, then the client's, then the call's.
    const headers = new Headers(body === undefined ? undefined : { 'Content-Type': 'application/json' });
    for (const extra of [operation.headers, context.headers, options.headers]) {
      for (const name in extra) headers.set(name, extra[name]!);
    }
    const response = await transport.send(`${context.baseUrl}${operation.path}`, {
      method: operation.method,
      headers,
      body: body ?? null,
      signal: requestSignal,
    });
    responded = true;
    if (!response.ok) {
      // The status is known: the body of a refusal is read under its own short bound, and the
      // attempt's timeout no longer turns it into a timeout (retried, even for a 4xx).
      clearTimeout(timer);
      throw await transport.refusal(response);
    }
    const read = await readBoundedBody(response.body, MAX_RESPONSE_BODY_BYTES, true);
    if (read.truncated) {
      throw new BrowserCloudError(
        `The response body is over ${MAX_RESPONSE_BODY_BYTES} bytes (MAX_RESPONSE_BODY_BYTES).`,
      );
    }
    // An empty answer (204, say) is no data, as openapi-fetch has it.
    if (!read.text) return undefined as T;
    try {
      // What is handed out holds no token, even one the server echoes.
      return transport.redactAnswer(JSON.parse(read.text)) as T;
    } catch (cause) {
      throw new BrowserCloudError(
        cause instanceof SyntaxError
          ? 'The response body is not valid JSON.'
          : `The response body is not an answer of the API: ${(cause as Error).message}.`,
        { cause: transport.scrub(cause) },
      );
    }
  })();
  try {
    // The global fetch stops on its signal, body read included; racing the abort makes the
    // timeout hold for an injected fetch that ignores it.
    return { data: await (context.fetch ? abortable(sent, requestSignal) : sent) };
  } catch (cause) {
    if (signal?.aborted) return failure(new APIUserAbortError());
    if (timedOut) return failure(new APIConnectionTimeoutError(timeoutMs), operation.repeatable);
    if (cause instanceof APIError) {
      return failure(cause, operation.repeatable && isRetryable(cause.status, cause.headers));
    }
    // A 2xx body that is too long or not JSON: the same answer would come again.
    if (cause instanceof BrowserCloudError) return failure(cause);
    const clean = transport.scrub(cause);
    const why = describeConnectionFailure(clean);
    const message = `Connection error${responded ? ' while reading the response' : ''}${why ? `: ${why}` : '.'}`;
    return failure(
      new APIConnectionError(message, { cause: clean }),
      operation.repeatable || (!responded && failedBeforeSending(cause)),
    );
  } finally {
    clearTimeout(timer);
  }
}

/** The most bytes of a 2xx body read, after decompression (1 MiB): a gzip bomb is cut there. */
export const MAX_RESPONSE_BODY_BYTES = 1_048_576;

/** `promise`, or a rejection with `reason()` (the signal's reason by default) once `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal, reason = (): unknown => signal.reason): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(reason());
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Waits `ms`, or rejects with APIUserAbortError as soon as `signal` aborts. */
async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    // A signal of its own to listen on, as in `attempt`.
    await (signal ? abortable(wait, AbortSignal.any([signal]), () => new APIUserAbortError()) : wait);
  } finally {
    clearTimeout(timer);
  }
}
