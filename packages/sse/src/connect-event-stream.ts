import { batchedEvents } from './batched-event-iterator.js';
import { readBodyExcerpt } from './body-excerpt.js';
import { SseError } from './errors.js';
import { createParser } from './parser.js';
import type { Parser } from './parser.js';
import { deliveredKey, RecentIds } from './recent-ids.js';
import { backoffDelay, clampServerRetry, classifyResponse, MAX_TIMER_DELAY } from './retry-policy.js';
import type { ParserLimits, SseEvent } from './types.js';

/** The subset of `fetch` used here, so any compatible implementation can be injected. */
export type EventStreamFetch = (input: string | URL, init: RequestInit) => Promise<Response>;

/** What the `headers` function is told about the attempt it is building headers for. */
export interface HeadersContext {
  /** 0 for the first connection, then the number of the reconnect attempt since the last open. */
  readonly attempt: number;
  /** The ID that will be sent as `Last-Event-ID` (`""`: none). */
  readonly lastEventId: string;
}

/** Why a reconnect is scheduled. */
export type RetryReason = 'end' | 'network' | 'idle-timeout' | 'status';

export interface RetryInfo {
  /** Consecutive reconnect attempt about to be made (1-based, reset by a successful open). */
  readonly attempt: number;
  /** Milliseconds until that attempt. */
  readonly delay: number;
  readonly reason: RetryReason;
  /** Status of the response that is retried (`reason: "status"`). */
  readonly status?: number;
  /**
   * Error that ended the previous attempt (`reason: "network"` or `"idle-timeout"`), or what
   * `refusedError` made of the retried response (`reason: "status"`).
   */
  readonly error?: unknown;
}

export interface OpenInfo {
  readonly response: Response;
  /** 0 for the first open, else the reconnect attempt that succeeded. */
  readonly attempt: number;
}

export interface ConnectEventStreamOptions extends ParserLimits {
  /** @defaultValue `globalThis.fetch` */
  fetch?: EventStreamFetch | undefined;
  /**
   * Request headers, or a function computing them before every attempt (it may be
   * async), so a refreshed token is used on reconnect. `Cache-Control` and
   * `Last-Event-ID` are set by the reader and override same-named entries; `Accept`
   * is `text/event-stream` unless given here.
   */
  headers?: HeadersInit | ((context: HeadersContext) => HeadersInit | Promise<HeadersInit>) | undefined;
  /** Other `fetch` options (`credentials`, `mode`, ...). Method is always GET. */
  requestInit?: Omit<RequestInit, 'headers' | 'signal' | 'method' | 'body'> | undefined;
  /** Resume from a stored position: sent as `Last-Event-ID` on the first request too. @defaultValue `""` */
  lastEventId?: string | undefined;
  /** Aborting closes the connection, clears every timer and ends the iteration normally (no error). */
  signal?: AbortSignal | undefined;
  /** Reconnection time until the server sends `retry:`, in ms. @defaultValue 1000 */
  retryDelay?: number | undefined;
  /** Cap of the exponential backoff, in ms (a larger server `retry:` still wins). @defaultValue 30000 */
  maxRetryDelay?: number | undefined;
  /** Random extra delay, as a fraction of the delay. @defaultValue 0.2 */
  retryJitter?: number | undefined;
  /** Cap on a `Retry-After` header, in ms. @defaultValue 60000 */
  maxRetryAfter?: number | undefined;
  /**
   * Makes the caller's error for a response whose status refuses the stream (any but 200 and
   * 204), e.g. from its error body. It is thrown at once for a status that is
   * not retried, and becomes the `cause` of `retries-exhausted` when retries of a retryable one
   * run out. Without it, a fatal status throws `bad-status` with the first 512 bytes of the body,
   * and a retried one's body is discarded unread.
   */
  refusedError?: ((response: Response) => unknown) | undefined;
  /**
   * Consecutive reconnect attempts allowed without a successful open; then the
   * iteration throws `retries-exhausted` (or ends, if the last attempt ended
   * normally). @defaultValue Infinity
   */
  maxRetries?: number | undefined;
  /**
   * Reconnect after a normal end of the body, as `EventSource` does. With `false`
   * a normal end ends the iteration (errors and idle timeouts still reconnect).
   * @defaultValue true
   */
  reconnectOnEnd?: boolean | undefined;
  /** Drop and re-open the connection when no bytes arrive for this long, in ms; 0 disables. @defaultValue 60000 */
  idleTimeout?: number | undefined;
  /** How many recent event IDs are remembered to drop replays after a reconnect; 0 disables. @defaultValue 1024 */
  dedupeWindow?: number | undefined;
  /** Randomness for the jitter. @defaultValue `Math.random` */
  random?: (() => number) | undefined;
  /** Called after each successful open (status 200, `text/event-stream`). */
  onOpen?: ((info: OpenInfo) => void) | undefined;
  /** Called when a reconnect is scheduled, before waiting. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /** Called with each comment's text, e.g. keep-alives. */
  onComment?: ((comment: string) => void) | undefined;
}

/** The reconnecting event stream; iterate it with `for await`. */
export interface EventStreamConnection extends AsyncIterableIterator<SseEvent> {
  /**
   * The last event ID string as of the last event handed out (or all input
   * read, once drained): store it to resume later with `lastEventId`.
   */
  readonly lastEventId: string;
  /**
   * Current reconnection time: the server's last `retry:` brought within [500 ms, 60 s], else
   * `retryDelay`.
   */
  readonly retry: number;
  /** Closes the connection and ends the iteration; safe to call any time. */
  close(): Promise<void>;
}

/**
 * Reads a server-sent event stream over `fetch`, reconnecting as an
 * `EventSource` would, with backoff, idle detection, resumption and
 * deduplication. The request starts on the first `next()`.
 *
 * - Reconnects after a network error, an idle timeout, or a normal end of body
 *   (unless `reconnectOnEnd: false`); sends `Last-Event-ID` when the last event
 *   ID is not empty.
 * - Waits the reconnection time (server `retry:` clamped to [500 ms, 60 s], else
 *   `retryDelay`), doubled per consecutive failure up to `maxRetryDelay`, plus jitter;
 *   reset by a successful open.
 * - 200 + `text/event-stream` opens; 204 ends the iteration; 408, 429 and 5xx are
 *   retried, or as `x-should-retry` says, never 409 (waiting at least `Retry-After` or
 *   `retry-after-ms`, capped by `maxRetryAfter`); anything else throws `refusedError`'s
 *   error, or `bad-status`/`bad-content-type` with status, content type and the first
 *   512 bytes of the body.
 * - After a reconnect, events whose own `id:` and data were recently delivered are dropped
 *   (and ID-less events following such a replay), so none is delivered twice; an event that
 *   reuses an ID with other data (a restarted server's counter) is new, and delivered.
 * - A connection that opens but times out idle before its first event is a failed attempt: it
 *   does not reset the count of consecutive failures.
 * - Abort, `close()` or leaving the loop release the socket and all timers.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#the-eventsource-interface
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#reestablish-the-connection
 */
export function connectEventStream(url: string | URL, options: ConnectEventStreamOptions = {}): EventStreamConnection {
  const signal = options.signal;
  const fetchImpl: EventStreamFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const retryDelay = options.retryDelay ?? 1000;
  const idleTimeout = options.idleTimeout ?? 60_000;
  const maxRetries = options.maxRetries ?? Infinity;
  const recent = new RecentIds(options.dedupeWindow ?? 1024);
  /** A normal end of a body (or a 200 without one) ends the iteration instead of reconnecting. */
  const endIsFinal = options.reconnectOnEnd === false;
  const batch: SseEvent[] = [];

  /** Last event ID string while no parser is open. */
  let savedId = options.lastEventId ?? '';
  let serverRetry: number | undefined;
  /** Released for good: by `close()`, abort, the end of the stream or an error. */
  let closed = false;
  let started = false;
  /** Reconnect attempts since the last successful open. */
  let attempts = 0;
  /**
   * The attempts made before the current connection opened, and whether it has yet to deliver an
   * event: a connection that opens and then stalls until the idle timeout has not succeeded, so
   * its attempt counts on (a server that sends headers and then nothing must not retry forever).
   */
  let attemptsBeforeOpen = 0;
  let awaitingFirstEvent = false;
  /** Why the previous attempt ended; `undefined` before the first attempt and after an open. */
  let lastFailure: Failure | undefined;
  /** `Retry-After` of the status that ended the previous attempt, in ms. */
  let lastRetryAfter: number | undefined;

  let controller: AbortController | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let parser: Parser | undefined;

  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let idleFired = false;
  let lastActivity = 0;
  /** Ends the backoff wait early (on close). */
  let wake: (() => void) | undefined;

  /** After a reconnect: drop events whose `id:` was already delivered. */
  let replaying = false;
  /** In replay mode, a replayed event was just dropped: ID-less followers belong to the replay. */
  let inReplayedRun = false;

  /**
   * A signal of this stream's own that follows the caller's: many streams may share one signal,
   * and each listening on it directly would pass Node's limit of 10 listeners per signal.
   */
  let abortSignal: AbortSignal | undefined;
  const onAbort = (): void => {
    void stream.close();
  };

  /** Reads until the batch holds events; `false` when the stream is over for good. */
  const fill = async (): Promise<boolean> => {
    if (!started) {
      started = true;
      if (signal?.aborted) return false;
      if (signal !== undefined) {
        abortSignal = AbortSignal.any([signal]);
        abortSignal.addEventListener('abort', onAbort, { once: true });
      }
    }
    for (;;) {
      if (closed) return false;
      if (reader === undefined && !(await open())) return false;
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader!.read();
      } catch (error) {
        if (closed) return false;
        await fail(dropped(error));
        continue;
      }
      if (closed) return false;
      if (result.done) {
        if (!idleFired && endIsFinal) return false;
        await fail(idleFired ? dropped() : { reason: 'end' });
        continue;
      }
      lastActivity = performance.now();
      // A limit error propagates: the connection is released, and the events before it are still handed out.
      parser!.feed(result.value);
      if (batch.length !== 0) return true;
    }
  };

  /**
   * Makes attempts until one opens (true) or the stream ends for good (false);
   * throws on a fatal status or when `maxRetries` is exhausted.
   */
  const open = async (): Promise<boolean> => {
    for (;;) {
      if (closed) return false;
      const failure = lastFailure;
      if (failure !== undefined) {
        attempts++;
        if (attempts > maxRetries) {
          if (failure.reason === 'end') return false;
          throw new SseError('retries-exhausted', `Gave up after ${attempts - 1} reconnect attempts`, {
            attempts: attempts - 1,
            status: failure.status,
            cause: failure.error,
          });
        }
        const delay = backoffDelay(attempts, stream.retry, {
          maxDelay: options.maxRetryDelay ?? 30_000,
          jitter: options.retryJitter ?? 0.2,
          random: options.random,
          retryAfter: lastRetryAfter,
          maxRetryAfter: options.maxRetryAfter,
        });
        options.onRetry?.({ attempt: attempts, delay, ...failure });
        // `onRetry` may have closed the stream (an abort it triggered, say): then there is nothing to wait for.
        if (closed) return false;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        if (closed) return false;
      }

      const lastEventId = savedId;
      controller = new AbortController();
      armIdle();
      // An error of the caller's own `headers` function (e.g. a token refresh) is not ours to retry.
      const headers = await buildHeaders(lastEventId);
      if (closed) return false;
      let response: Response;
      try {
        response = await fetchImpl(url, { ...options.requestInit, method: 'GET', headers, signal: controller.signal });
      } catch (error) {
        if (closed) return false;
        await fail(dropped(error));
        continue;
      }
      const verdict = closed ? undefined : classifyResponse(response.status, response.headers);
      if (verdict?.kind === 'open' && response.body !== null) {
        parser = createParser({ ...options, lastEventId, onRetry, onEvent });
        reader = response.body.getReader();
        replaying = failure !== undefined && recent.size > 0;
        inReplayedRun = false;
        const attempt = attempts;
        attemptsBeforeOpen = attempts;
        awaitingFirstEvent = true;
        attempts = 0;
        lastFailure = undefined;
        lastActivity = performance.now();
        options.onOpen?.({ response, attempt });
        return true;
      }
      const refusedError = options.refusedError;
      if (verdict?.kind === 'fail') {
        const status = response.status;
        if (verdict.type === 'bad-status' && refusedError !== undefined) throw await refusedError(response);
        const contentType = response.headers.get('content-type');
        const bodyExcerpt = await readBodyExcerpt(response.body);
        throw new SseError(
          verdict.type,
          verdict.type === 'bad-status'
            ? `Event stream request failed with status ${status}`
            : `Event stream response has content type ${JSON.stringify(contentType)}, expected text/event-stream`,
          { status, contentType, bodyExcerpt },
        );
      }
      if (verdict?.kind === 'retry') {
        const failure: Failure = { reason: 'status', status: response.status };
        if (refusedError === undefined) response.body?.cancel().catch(ignore);
        else failure.error = await refusedError(response);
        if (closed) return false;
        await fail(failure, verdict.retryAfter);
        continue;
      }
      response.body?.cancel().catch(ignore);
      // Closed meanwhile, or 204: the end.
      if (verdict === undefined || verdict.kind === 'end') return false;
      // A 200 without a body: nothing to read, same as an immediate end.
      if (endIsFinal) return false;
      await fail({ reason: 'end' });
    }
  };

  const buildHeaders = async (lastEventId: string): Promise<Headers> => {
    const option = options.headers;
    const headers = new Headers(
      typeof option === 'function' ? await option({ attempt: attempts, lastEventId }) : option,
    );
    // A caller may widen Accept (say, to JSON for error bodies); the stream itself is SSE.
    if (!headers.has('Accept')) headers.set('Accept', 'text/event-stream');
    headers.set('Cache-Control', 'no-cache');
    if (lastEventId !== '') headers.set('Last-Event-ID', toByteString(lastEventId));
    else headers.delete('Last-Event-ID');
    return headers;
  };

  const onRetry = (milliseconds: number): void => {
    serverRetry = clampServerRetry(milliseconds);
  };

  /** Batches each parsed event, unless it is a replay of one already delivered (same ID, same data). */
  const onEvent = (event: SseEvent, hasId: boolean): void => {
    awaitingFirstEvent = false;
    const explicitId = hasId && event.id !== '';
    const key = explicitId ? deliveredKey(event.id, event.data) : '';
    if (replaying) {
      if (explicitId) {
        if (recent.has(key)) {
          inReplayedRun = true;
          return;
        }
        replaying = false;
      } else if (inReplayedRun) {
        return;
      }
    }
    if (explicitId) recent.add(key);
    batch.push(event);
  };

  /** The failure of an attempt that was cut off: by the idle timer, else by the network. */
  const dropped = (error?: unknown): Failure => {
    if (!idleFired) return { reason: 'network', error };
    if (awaitingFirstEvent) attempts = attemptsBeforeOpen;
    return { reason: 'idle-timeout', error: idleError(error) };
  };

  /** Ends the current attempt (keeping its last event ID) and records why, for the next `open()`. */
  const fail = async (failure: Failure, retryAfter?: number): Promise<void> => {
    lastFailure = failure;
    lastRetryAfter = retryAfter;
    await dropConnection();
  };

  const dropConnection = async (): Promise<void> => {
    clearTimeout(idleTimer);
    awaitingFirstEvent = false;
    if (parser !== undefined) {
      parser.end();
      savedId = parser.lastEventId;
      parser = undefined;
    }
    controller?.abort();
    controller = undefined;
    const current = reader;
    reader = undefined;
    await current?.cancel().catch(ignore);
  };

  /** Starts the idle timer of a new attempt; it runs from the request until the body is dropped. */
  const armIdle = (): void => {
    clearTimeout(idleTimer);
    idleFired = false;
    if (!(idleTimeout > 0) || idleTimeout >= MAX_TIMER_DELAY) return;
    lastActivity = performance.now();
    idleTimer = setTimeout(checkIdle, idleTimeout);
  };

  /** One timer per connection, re-armed lazily: cheaper than resetting a timer on every chunk. */
  const checkIdle = (): void => {
    const elapsed = performance.now() - lastActivity;
    if (elapsed < idleTimeout) {
      idleTimer = setTimeout(checkIdle, idleTimeout - elapsed);
      return;
    }
    idleFired = true;
    const error = idleError();
    controller?.abort(error);
    reader?.cancel(error).catch(ignore);
  };

  const idleError = (cause?: unknown): SseError =>
    // The abort reason is this same error type; do not nest it in itself.
    cause instanceof SseError && cause.type === 'idle-timeout'
      ? cause
      : new SseError('idle-timeout', `No data received for ${idleTimeout} ms`, { cause });

  const stream = batchedEvents(batch, savedId, {
    fill,
    parsedId: () => (parser !== undefined ? parser.lastEventId : savedId),
    retry: () => serverRetry ?? retryDelay,
    release: async () => {
      if (closed) return;
      closed = true;
      abortSignal?.removeEventListener('abort', onAbort);
      wake?.();
      await dropConnection();
    },
  });
  return stream;
}

/** Why an attempt ended, as reported to `onRetry` (only the keys that apply). */
type Failure = { reason: RetryReason; status?: number; error?: unknown };

/**
 * Header values are byte strings; the spec sends the last event ID "encoded as
 * UTF-8", so a non-ASCII ID goes out as its UTF-8 bytes, one char per byte.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#the-eventsource-interface
 */
function toByteString(value: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(value)) out += String.fromCharCode(byte);
  return out;
}

function ignore(): void {}
