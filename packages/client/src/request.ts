import type { Validator } from '@browser-cloud/api-types';
import { readBoundedBody } from '@browser-cloud/sse';
import { backoffDelay, isRetryable, parseRetryAfter } from '@browser-cloud/sse/retry-policy';
import { BACKOFF } from './config.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  APIError,
  BrowserCloudError,
  describeConnectionFailure,
  NotFoundError,
} from './errors.js';
import { failedBeforeSending } from './failed-before-sending.js';
import type { FetchLike, Transport } from './transport.js';
import { checkReceived, wellFormed } from './validation.js';

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
  /** Without a trailing slash. */
  readonly baseUrl: string;
  /** The fetch a caller injected, or undefined for the global one. */
  readonly fetch: FetchLike | undefined;
  /** Sends requests and scrubs what errors carry; the only holder of the token. */
  readonly transport: Transport;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** The client's `headers` option. */
  readonly headers: Record<string, string> | undefined;
}

/** One operation as the retry loop sees it; `T` is what its 2xx answer holds. */
export interface Operation<T> {
  readonly method: string;
  /** The path under the base URL, its parameters already encoded by `pathSegment` (see {@link operationUrl}). */
  readonly path: string;
  /** Sent as JSON when defined. */
  readonly body?: unknown;
  /**
   * Whether another attempt is harmless once the server may have acted on this one (the
   * document's `x-repeatable`, see `prepare`). When false, after any response, or a failure that
   * may follow sending, it is retried only when the connection certainly failed before sending.
   */
  readonly repeatable: boolean;
  /**
   * The generated tolerant reader of the 2xx body (`validateReceived<answer>`) and the answer's
   * schema name: a body without a required property, or with a known one of the wrong type, is
   * an InvalidResponseError; properties the document does not know pass through. Absent for an
   * answer without a body.
   */
  readonly answer?: { readonly validate: Validator<T>; readonly name: string } | undefined;
  /** Whether this failure means the call is done after all (see {@link goneOnceApplied}). */
  readonly done?: ((error: BrowserCloudError) => boolean) | undefined;
}

/**
 * The URL of an operation, as openapi-fetch builds one from its path template: path parameters
 * go in through `encodeURIComponent` at the call (`pathSegment`), query values too, and a
 * value that is undefined or null is left out. A query value that is not well-formed Unicode is
 * a ValidationError ({@link wellFormed}).
 */
export function operationUrl(baseUrl: string, path: string, query: object = {}): string {
  const search = Object.entries(query)
    .filter(([, value]) => value != null)
    .map(([name, value]) => {
      wellFormed(value, `query.${name}`);
      return `${name}=${encodeURIComponent(value)}`;
    })
    .join('&');
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

type Outcome<T> = { ok: true; data: T } | { ok: false; error: BrowserCloudError; retry: boolean; headers?: Headers };

/**
 * Runs `operation` with the client's timeout and the one retry policy of
 * `@browser-cloud/sse/retry-policy`: retries on connection errors, timeouts and what
 * `isRetryable` retries (408, 429, 5xx, or as `x-should-retry` says; never 409), waiting the
 * backoff or the server's `Retry-After`; a non-repeatable operation is retried only on failures
 * before sending. A body holding a string that is not well-formed Unicode is refused before
 * sending ({@link wellFormed}), as path and query values are where they are encoded.
 */
export async function execute<T>(
  context: RequestContext,
  operation: Operation<T>,
  options: RequestOptions = {},
): Promise<T> {
  wellFormed(operation.body, 'body');
  const maxRetries = options.maxRetries ?? context.maxRetries;
  for (let retry = 0; ; retry++) {
    const outcome = await attempt<T>(context, operation, options);
    if (outcome.ok) {
      const { answer } = operation;
      if (!answer) return undefined as T;
      checkReceived(
        answer.validate,
        outcome.data,
        'body',
        `The answer of ${operation.method} ${operation.path} cannot be read as a ${answer.name}`,
        context.transport.redactJson,
      );
      return outcome.data;
    }
    const { error } = outcome;
    if (operation.done?.(error)) return undefined as T;
    if (!outcome.retry || retry >= maxRetries) throw error;
    const retryAfter = outcome.headers && parseRetryAfter(outcome.headers);
    await sleep(backoffDelay(retry + 1, BACKOFF.base, { ...BACKOFF, retryAfter }), options.signal);
  }
}

/**
 * The `done` of a DELETE answered without a body: a 404 once an earlier attempt may have applied
 * (a timeout, a connection lost after sending, a 5xx) means what it deletes is gone, and the call
 * resolves. A 404 at the first attempt, or after attempts that certainly did not apply (408,
 * 429, a refused connection), is the caller's NotFoundError. One per call: it remembers the attempts.
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
  // Follows the caller's signal without a listener on it: calls sharing one signal would pass
  // Node's limit of 10 listeners per signal.
  const requestSignal = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
  let responded = false;
  // A refused answer becomes its APIError here, from a bounded read of its body, whatever its size.
  const sent = (async () => {
    const { body } = operation;
    // As openapi-fetch merged them: the JSON content type, then the client's, then the call's.
    const headers = new Headers(body === undefined ? undefined : { 'Content-Type': 'application/json' });
    for (const extra of [context.headers, options.headers]) for (const name in extra) headers.set(name, extra[name]!);
    const response = await context.transport.send(operationUrl(context.baseUrl, operation.path), {
      method: operation.method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: requestSignal,
    });
    responded = true;
    if (!response.ok) {
      // The status is known: the body of a refusal is read under its own short bound, and the
      // attempt's timeout no longer turns it into a timeout (retried, even for a 4xx).
      clearTimeout(timer);
      throw await context.transport.refusal(response);
    }
    // An empty answer (204, say) is no data, as openapi-fetch has it.
    const text = await boundedText(response);
    // What is handed out holds no token, even one the server echoes.
    return (text ? context.transport.redactAnswer(JSON.parse(text)) : undefined) as T;
  })();
  try {
    // The global fetch stops on its signal, body read included; racing the abort makes the
    // timeout hold for an injected fetch that ignores it.
    return { ok: true, data: await (context.fetch ? untilAborted(sent, requestSignal) : sent) };
  } catch (cause) {
    if (signal?.aborted) return { ok: false, error: new APIUserAbortError(), retry: false };
    if (timedOut) return { ok: false, error: new APIConnectionTimeoutError(timeoutMs), retry: operation.repeatable };
    if (cause instanceof APIError) {
      return {
        ok: false,
        error: cause,
        retry: operation.repeatable && isRetryable(cause.status, cause.headers),
        headers: cause.headers,
      };
    }
    if (cause instanceof BrowserCloudError) return { ok: false, error: cause, retry: false };
    const clean = context.transport.scrub(cause);
    if (responded && cause instanceof SyntaxError) {
      return {
        ok: false,
        error: new BrowserCloudError('The response body is not valid JSON.', { cause: clean }),
        retry: false,
      };
    }
    if (responded && cause instanceof RangeError) {
      return {
        ok: false,
        error: new BrowserCloudError(`The response body is not an answer of the API: ${cause.message}.`),
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
  }
}

/**
 * The most bytes of a 2xx body read, after decompression: 1 MiB, far above any answer of the
 * API. A larger body (a gzip bomb: a megabyte on the wire, gigabytes unpacked) is cancelled
 * there, with a {@link BrowserCloudError} naming the bound.
 */
export const MAX_RESPONSE_BODY_BYTES = 1024 * 1024;

/** A 2xx body as text, at most {@link MAX_RESPONSE_BODY_BYTES} of it; a failure to read it is thrown as it came. */
async function boundedText(response: Response): Promise<string> {
  const read = await readBoundedBody(response.body, MAX_RESPONSE_BODY_BYTES, true);
  if (read.truncated) {
    throw new BrowserCloudError(
      `The response body is over ${MAX_RESPONSE_BODY_BYTES} bytes (MAX_RESPONSE_BODY_BYTES, after decompression): the rest was not read.`,
    );
  }
  return read.text;
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
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError());
    // A signal of its own to listen on, as in `attempt`.
    const own = signal && AbortSignal.any([signal]);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(() => {
      own?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    own?.addEventListener('abort', onAbort, { once: true });
  });
}
