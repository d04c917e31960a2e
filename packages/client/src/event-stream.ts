import type { Validator } from '@browser-cloud/api-types';
import { connectEventStream, createJsonEventDecoder, SseError, type StreamStateChange } from '@browser-cloud/sse';
import { BACKOFF } from './config.js';
import { APIConnectionError, APIConnectionTimeoutError, BrowserCloudError, ValidationError } from './errors.js';
import { describeConnectionFailure } from './causes.js';
import type { RequestContext, RequestOptions } from './request.js';
import { check } from './validation.js';

/** Options of an event stream (`client.browsers.logs.stream`). */
export interface StreamOptions extends RequestOptions {
  /**
   * For the stream this is an idle timeout, not a total one: the connection is dropped (and
   * re-opened with `Last-Event-ID`) when no byte arrives for this long, including while waiting
   * for the response headers. Default: the client's `timeoutMs` (60 s); 0 disables it.
   */
  timeoutMs?: number | undefined;
  /**
   * Consecutive failed (re)connection attempts allowed before the iteration throws. An attempt
   * succeeds only when an event (a heartbeat included) arrives: an open that then drops, ends or
   * stalls counts as failed. Default: the client's `maxRetries` (2).
   */
  maxRetries?: number | undefined;
  /**
   * Told each change of the connection's state with the attempt's number, as the stream counts
   * them: `connecting`, `open`, `streaming` (an event arrived: the attempt succeeded), `waiting`
   * (reconnect `attempt` of `maxRetries` is scheduled, with `delay`, `reason` and the `error`,
   * without the token) and `ended`.
   */
  onStateChange?: ((change: StreamStateChange) => void) | undefined;
  /** Resume after this event: sent as `Last-Event-ID` on the first request. A control character (CR, LF, NUL, ESC…) in it is a ValidationError. */
  lastEventId?: string | undefined;
}

/** The async iterable of events that a streaming operation returns: each event's data, read as `T`. */
export interface EventStream<T> extends AsyncIterableIterator<T> {
  /**
   * SSE ID of the last event handed out (`""` when none): pass it as `lastEventId` to a new
   * call to resume where this one stopped.
   */
  readonly lastEventId: string;
  /** Closes the connection and ends the iteration; safe to call any time. */
  close(): Promise<void>;
}

/** The tolerant reader of each event's data (`x-sse-event-data`) and its schema's name. */
export interface EventData<T> {
  readonly validate: Validator<T>;
  readonly name: string;
}

/** Errors come as JSON bodies: say so, so that servers (and Prism) may answer them. */
const STREAM_ACCEPT = 'text/event-stream, application/json;q=0.9';

/**
 * Opens a streaming operation at `path` (its query included), whose arguments the generated code
 * has checked; `lastEventId` is checked here, at once (ValidationError). The request starts on
 * the first `next()`.
 *
 * - Yields each event's data as a `T`; heartbeat objects (`sse_heartbeat`) and comment lines are
 *   skipped. `lastEventId` on the returned stream is the SSE ID of the last one.
 * - A dropped connection, an idle timeout, 408, 429 and 5xx (or as `x-should-retry` says; never
 *   409) are reconnected with `Last-Event-ID`, with backoff (0.5 s doubling to 8 s, +≤25 %
 *   jitter, at least the server's `retry:` clamped to [500 ms, 60 s] and its `Retry-After` up
 *   to 60 s), up to `maxRetries` consecutive failures; an attempt succeeds only when an event
 *   arrives.
 * - With `follow` (the query parameter marked `x-sse-follow` is true), a normal end of the body is
 *   reconnected too (the server keeps the stream going); without it, it ends the iteration.
 * - Aborting `signal`, `close()` or leaving the loop closes the connection and ends the
 *   iteration without an error.
 * - Other statuses throw the matching APIError subclass; exhausted reconnects throw
 *   APIConnectionError (APIConnectionTimeoutError after idle timeouts).
 *
 * It is the one wrapper between the reconnecting reader and the caller: it decodes each event's
 * JSON against the document's event data and turns the reader's failures into this package's
 * errors. A refused status reaches the reader as it came, and the transport makes its APIError
 * from a bounded read of the body. The stream is a closure: it holds no context, so nothing in
 * it leads to the token.
 */
export function openEventStream<T>(
  context: RequestContext,
  path: string,
  data: EventData<T>,
  follow: boolean,
  options: StreamOptions = {},
): EventStream<T> {
  // An SSE id never holds these (WHATWG HTML § 9.2.6: lines end at CR/LF, an id with NUL is
  // ignored), and as the Last-Event-ID header they would be refused late, as a network error.
  // Nor another control character: fetch refuses them in a header when sending, as a network error.
  if (options.lastEventId !== undefined && /[\u0000-\u001f\u007f]/.test(options.lastEventId)) {
    const message = 'lastEventId: must not hold a control character';
    throw new ValidationError([{ field: 'lastEventId', rule: 'pattern', message }]);
  }
  const { transport } = context;
  const idleTimeoutMs = options.timeoutMs ?? context.timeoutMs;
  const onStateChange = options.onStateChange;
  /** This package's errors as they are, anything else as a copy without the token. */
  const clean = (error: unknown): unknown => (error instanceof BrowserCloudError ? error : transport.scrub(error));
  const connection = connectEventStream(`${context.baseUrl}${path}`, {
    fetch: (input, init) => transport.send(new Request(input, init)),
    headers: { ...context.headers, Accept: STREAM_ACCEPT, ...options.headers },
    refusedError: (response) => transport.refusal(response),
    // Without `follow` a normal end of the body is the end of the stream.
    reconnectOnEnd: follow,
    lastEventId: options.lastEventId ?? '',
    signal: options.signal,
    idleTimeout: idleTimeoutMs,
    maxRetries: options.maxRetries ?? context.maxRetries,
    retryDelay: BACKOFF.base,
    maxRetryDelay: BACKOFF.maxDelay,
    retryJitter: BACKOFF.jitter,
    onStateChange:
      onStateChange &&
      ((change) => onStateChange(change.state === 'waiting' ? { ...change, error: clean(change.error) } : change)),
  });
  // Heartbeats are skipped and the data parsed here; it is read as a `T` below.
  const decode = createJsonEventDecoder();

  const eventName = (id: string | undefined) => `Stream event${id ? ` ${id}` : ''}`;
  /** The reader's failures as this package's errors, without the token. */
  const translate = (error: unknown): BrowserCloudError => {
    if (error instanceof BrowserCloudError) return error;
    const sse = error instanceof SseError ? error : undefined;
    if (sse?.type === 'retries-exhausted') {
      const last = sse.cause;
      // The refused status's own APIError, made by `refusedError`.
      if (last instanceof BrowserCloudError) return last;
      if (last instanceof SseError && last.type === 'idle-timeout') return new APIConnectionTimeoutError(idleTimeoutMs);
      const cause = transport.scrub(last);
      const why = describeConnectionFailure(cause);
      const message = `Stream connection failed: ${sse.message}${why ? ` (${why})` : ''}.`;
      return new APIConnectionError(transport.redact(message), { cause });
    }
    const what =
      sse?.type === 'invalid-json' ? `${eventName(sse.id)} is not a ${data.name} of the document` : 'Stream failed';
    return new BrowserCloudError(transport.redact(`${what}: ${sse ? sse.message : String(error)}`), {
      cause: transport.scrub(error),
    });
  };

  async function* events(): AsyncGenerator<T, undefined> {
    try {
      for await (const raw of connection) {
        const event = decode(raw);
        if (event === undefined) continue;
        // Said as ValidationError says it (`event.message: is required`).
        const what = transport.redact(`${eventName(event.id)} cannot be read as a ${data.name}`);
        check(data.validate, event.data, 'event', what, transport.redactJson);
        yield transport.redactAnswer(event.data);
      }
    } catch (error) {
      throw translate(error);
    } finally {
      await connection.close();
    }
  }
  return Object.defineProperties(events(), {
    // The ID to resume from, as handed out: without the token, should the server echo it there.
    lastEventId: { get: () => transport.redactAnswer(connection.lastEventId) },
    close: { value: () => connection.close() },
  }) as EventStream<T>;
}
