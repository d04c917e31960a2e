import { connectEventStream, createJsonEventDecoder, SseError, type StreamStateChange } from '@browser-cloud/sse';
import { BACKOFF } from './config.js';
import { APIConnectionError, APIConnectionTimeoutError, BrowserCloudError, ValidationError } from './errors.js';
import { describeConnectionFailure } from './causes.js';
import type { RequestContext, RequestOptions } from './request.js';
import { check, type Reader } from './validation.js';

/** Options of an event stream (`client.browsers.logs.stream`). */
export interface StreamOptions extends RequestOptions {
  /** An idle timeout: no byte for this long (headers included) reconnects. Default: the client's; 0 disables it. */
  timeoutMs?: number | undefined;
  /** Consecutive failed (re)connections allowed; an attempt succeeds only when an event arrives. Default: the client's. */
  maxRetries?: number | undefined;
  /** Told each state of the connection (see `StreamStateChange`); a `waiting` one's `error` is without the token. */
  onStateChange?: ((change: StreamStateChange) => void) | undefined;
  /** Resume after this event: sent as `Last-Event-ID` on the first request. A control character (CR, LF, NUL, ESC…) in it is a ValidationError. */
  lastEventId?: string | undefined;
}

/** The async iterable of events that a streaming operation returns: each event's data, read as `T`. */
export interface EventStream<T> extends AsyncIterableIterator<T> {
  /** SSE ID of the last event handed out (`""` when none): pass it as `lastEventId` to resume. */
  readonly lastEventId: string;
  /** Closes the connection and ends the iteration; safe to call any time. */
  close(): Promise<void>;
}

/**
 * Opens a streaming operation at `path` (query included) with the reconnecting reader of
 * `@browser-cloud/sse`, reading each event's data as a `T` and its failures as this package's
 * errors. It keeps no context, so nothing in it leads to the token.
 */
export function openEventStream<T>(
  context: RequestContext,
  path: string,
  data: Reader<T>,
  follow: boolean,
  options: StreamOptions = {},
): EventStream<T> {
  // An SSE id never holds these (WHATWG HTML § 9.2.6: lines end at CR/LF, an id with NUL is
  // ignored), and as the Last-Event-ID header they would be refused late, as a network error.
  // Nor another control character: fetch refuses them in a header when sending, as a network error.
  if (options.lastEventId !== undefined && /[\u0000-\u001f\u007f]/.test(options.lastEventId)) {
    const message = 'lastEventId: must not contain a line break or NUL, nor another control character';
    throw new ValidationError([{ field: 'lastEventId', rule: 'pattern', message }]);
  }
  const { transport } = context;
  const idleTimeoutMs = options.timeoutMs ?? context.timeoutMs;
  const onStateChange = options.onStateChange;
  const connection = connectEventStream(`${context.baseUrl}${path}`, {
    fetch: (input, init) => transport.send(new Request(input, init)),
    // Errors come as JSON bodies: say so, so that servers (and Prism) may answer them.
    headers: { ...context.headers, Accept: 'text/event-stream, application/json;q=0.9', ...options.headers },
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
      // A waiting change's error without the token (this package's errors hold none).
      ((change) =>
        onStateChange(
          change.state === 'waiting' && !(change.error instanceof BrowserCloudError)
            ? { ...change, error: transport.scrub(change.error) }
            : change,
        )),
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
      return new APIConnectionError(transport.redactJson(message), { cause });
    }
    const what =
      sse?.type === 'invalid-json' ? `${eventName(sse.id)} is not a ${data.name} of the document` : 'Stream failed';
    return new BrowserCloudError(transport.redactJson(`${what}: ${sse ? sse.message : String(error)}`), {
      cause: transport.scrub(error),
    });
  };

  async function* events(): AsyncGenerator<T, undefined> {
    try {
      for await (const raw of connection) {
        const event = decode(raw);
        if (event === undefined) continue;
        // Said as ValidationError says it (`event.message: is required`).
        const what = transport.redactJson(`${eventName(event.id)} cannot be read as a ${data.name}`);
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
