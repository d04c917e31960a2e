import { type BatchedEvents, batchedEvents } from './batched-event-iterator.js';
import { readBoundedBody } from './body-excerpt.js';
import { SseError } from './errors.js';
import { createParser, type Parser, type ParserLimits } from './parser.js';
import { deliveredKey, RecentIds } from './recent-ids.js';
import { backoffDelay, clampServerRetry, classifyResponse, MAX_TIMER_DELAY } from './retry-policy.js';
import type { SseEvent } from './event-parser.js';

/** The subset of `fetch` used here, so any compatible implementation can be injected. */
export type EventStreamFetch = (input: string | URL, init: RequestInit) => Promise<Response>;

/** What the `headers` function is told about the attempt it is building headers for. */
export interface HeadersContext {
  /** 0 for the first connection, then the number of the reconnect attempt since an event last arrived. */
  readonly attempt: number;
  /** The ID that will be sent as `Last-Event-ID` (`""`: none). */
  readonly lastEventId: string;
}

/** Why a reconnect is scheduled. */
export type RetryReason = 'end' | 'network' | 'idle-timeout' | 'status';

export interface RetryInfo {
  /** Consecutive reconnect attempt about to be made (1-based; an attempt succeeds when an event arrives). */
  readonly attempt: number;
  /** Milliseconds until that attempt. */
  readonly delay: number;
  readonly reason: RetryReason;
  /** Status of the retried response (`reason: "status"`). */
  readonly status?: number;
  /** What ended the previous attempt (`network`, `idle-timeout`), or `refusedError`'s error for the response. */
  readonly error?: unknown;
}

export interface OpenInfo {
  readonly response: Response;
  /** 0 for the first connection, else the reconnect attempt that opened. */
  readonly attempt: number;
}

/** The states of a connection, as the README's table describes them; `waiting` carries what `onRetry` is told. */
export type StreamStateChange =
  | { readonly state: 'connecting' | 'open' | 'streaming' | 'ended'; readonly attempt: number }
  | ({ readonly state: 'waiting' } & RetryInfo);

/** Options of {@link connectEventStream}; the README's table gives each one's default and meaning. */
export interface ConnectEventStreamOptions extends ParserLimits {
  fetch?: EventStreamFetch | undefined;
  /** Headers, or a (possibly async) function called before every attempt, so a refreshed token is used on reconnect. */
  headers?: HeadersInit | ((context: HeadersContext) => HeadersInit | Promise<HeadersInit>) | undefined;
  /** Other `fetch` options (`credentials`, `mode`, ...). Method is always GET. */
  requestInit?: Omit<RequestInit, 'headers' | 'signal' | 'method' | 'body'> | undefined;
  /** Resume from a stored position: sent as `Last-Event-ID` on the first request too. */
  lastEventId?: string | undefined;
  /** Aborting closes the connection, clears every timer and ends the iteration normally (no error). */
  signal?: AbortSignal | undefined;
  /** Reconnection time until the server sends `retry:`, in ms (1000). */
  retryDelay?: number | undefined;
  /** Cap of the exponential backoff, in ms (30 000); a larger server `retry:` still wins. */
  maxRetryDelay?: number | undefined;
  /** Random extra delay, as a fraction of the delay (0.2). */
  retryJitter?: number | undefined;
  /** Cap on a `Retry-After` header, in ms (60 000). */
  maxRetryAfter?: number | undefined;
  /** The caller's error for a refused status: thrown when not retried, else the `cause` of `retries-exhausted`. */
  refusedError?: ((response: Response) => unknown) | undefined;
  /** Consecutive reconnect attempts allowed without an event arriving (Infinity); then `retries-exhausted`. */
  maxRetries?: number | undefined;
  /** Reconnect after a normal end of the body, as `EventSource` does (true). */
  reconnectOnEnd?: boolean | undefined;
  /** Drop and re-open the connection when no bytes arrive for this long, in ms (60 000); 0 disables. */
  idleTimeout?: number | undefined;
  /** How many recent events are remembered to drop replays after a reconnect (1024); 0 disables. */
  dedupeWindow?: number | undefined;
  /** Randomness for the jitter (`Math.random`). */
  random?: (() => number) | undefined;
  /** Called after each open (status 200, `text/event-stream`), before any event. */
  onOpen?: ((info: OpenInfo) => void) | undefined;
  /** Called when a reconnect is scheduled, before waiting. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /** Called on each change of state, with the attempt's number. */
  onStateChange?: ((change: StreamStateChange) => void) | undefined;
  /** Called with each comment's text, e.g. keep-alives. */
  onComment?: ((comment: string) => void) | undefined;
}

/** The reconnecting event stream; `retry` is the server's last `retry:` within [500 ms, 60 s], else `retryDelay`. */
export type EventStreamConnection = BatchedEvents<number>;

/**
 * Reads a server-sent event stream over `fetch`, reconnecting as an `EventSource` would, with
 * backoff, idle detection, resumption and deduplication of replays (the README's "Retry rules").
 * The request starts on the first `next()`. An attempt succeeds only when an event arrives, so
 * `maxRetries` bounds the connections made between two events.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#the-eventsource-interface
 */
export function connectEventStream(url: string | URL, options: ConnectEventStreamOptions = {}): EventStreamConnection {
  const fetchImpl: EventStreamFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const idleTimeout = options.idleTimeout ?? 60_000;
  const maxRetries = options.maxRetries ?? Infinity;
  const recent = new RecentIds(options.dedupeWindow ?? 1024);
  const batch: SseEvent[] = [];

  let state: StreamStateChange['state'] | undefined;
  /** Attempts since an event last arrived: 0 for the first connection, then the reconnect's number. */
  let attempt = 0;
  /** The attempt under way, from its request until it is dropped. */
  let current: Attempt | undefined;
  /** Last event ID string while no parser is open. */
  let savedId = options.lastEventId ?? '';
  let serverRetry: number | undefined;
  /** Ends the backoff wait early (on close). */
  let wake: (() => void) | undefined;

  const enter = (change: StreamStateChange): void => {
    state = change.state;
    options.onStateChange?.(change);
  };
  /** Released for good (by `close()`, abort, the end or an error); read through a call, as callbacks may do it. */
  const closed = (): boolean => state === 'ended';

  /** Reads until the batch holds events (true) or the stream is over for good (false). */
  const fill = async (): Promise<boolean> => {
    while (!closed()) {
      const outcome = current?.reader ? await read(current) : await connect();
      if (batch.length !== 0) return true;
      if (outcome === undefined) continue;
      await drop();
      // An attempt cut off by `close()` or abort failed for no reason of the server's.
      if (outcome === 'end' || closed() || !(await retry(outcome))) return false;
    }
    return false;
  };

  /** Starts an attempt: opens its body, or says why it failed or that the stream ends; throws on a fatal status. */
  const connect = async (): Promise<Failure | 'end' | undefined> => {
    const lastEventId = savedId;
    const conn = new Attempt();
    current = conn;
    enter({ state: 'connecting', attempt });
    armIdle(conn);
    // An error of the caller's own `headers` function (e.g. a token refresh) is not ours to retry.
    const given =
      typeof options.headers === 'function' ? await options.headers({ attempt, lastEventId }) : options.headers;
    const headers = new Headers(given);
    // A caller may widen Accept (say, to JSON for error bodies); the stream itself is SSE.
    if (!headers.has('Accept')) headers.set('Accept', 'text/event-stream');
    headers.set('Cache-Control', 'no-cache');
    if (lastEventId !== '') headers.set('Last-Event-ID', toByteString(lastEventId));
    else headers.delete('Last-Event-ID');
    if (closed()) return undefined;
    const signal = conn.controller.signal;
    let response: Response;
    try {
      response = await fetchImpl(url, { ...options.requestInit, method: 'GET', headers, signal });
    } catch (error) {
      return dropped(conn, error);
    }
    const verdict = classifyResponse(response.status, response.headers);
    const refusedError = options.refusedError;
    if (closed() || verdict.kind === 'end') {
      response.body?.cancel().catch(ignore);
      return 'end';
    }
    if (verdict.kind === 'retry') {
      const failure: Failure = { reason: 'status', status: response.status, retryAfter: verdict.retryAfter };
      if (refusedError === undefined) response.body?.cancel().catch(ignore);
      else failure.error = await refusedError(response);
      return failure;
    }
    if (verdict.kind === 'fail') {
      const status = response.status;
      if (verdict.type === 'bad-status' && refusedError !== undefined) throw await refusedError(response);
      const contentType = response.headers.get('content-type');
      const bodyExcerpt = (await readBoundedBody(response.body, 512)).text;
      const message =
        verdict.type === 'bad-status'
          ? `Event stream request failed with status ${status}`
          : `Event stream response has content type ${JSON.stringify(contentType)}, expected text/event-stream`;
      throw new SseError(verdict.type, message, { status, contentType, bodyExcerpt });
    }
    // A 200 without a body: nothing to read, same as an immediate end.
    if (response.body === null) return { reason: 'end' };
    conn.parser = createParser({
      ...options,
      lastEventId,
      onRetry: (milliseconds) => {
        serverRetry = clampServerRetry(milliseconds);
      },
      onEvent: (e, id) => onEvent(conn, e, id),
    });
    conn.reader = response.body.getReader();
    conn.lastActivity = performance.now();
    enter({ state: 'open', attempt });
    options.onOpen?.({ response, attempt });
    return undefined;
  };

  /** Reads one chunk of the open attempt into the batch, or says why the attempt ended. */
  const read = async (conn: Attempt): Promise<Failure | undefined> => {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await conn.reader!.read();
    } catch (error) {
      return dropped(conn, error);
    }
    if (closed()) return undefined;
    if (result.done) return conn.idle ? dropped(conn) : { reason: 'end' };
    conn.lastActivity = performance.now();
    // A limit error propagates: the connection is released, and the events before it are still handed out.
    conn.parser!.feed(result.value);
    if (batch.length !== 0 && state === 'open') {
      enter({ state: 'streaming', attempt });
      attempt = 0;
    }
    return undefined;
  };

  /**
   * Waits before the next attempt (true), or says the stream ends (false): at a normal end
   * without `reconnectOnEnd`, or one after `maxRetries`; throws when they ran out otherwise.
   */
  const retry = async ({ retryAfter, ...failure }: Failure): Promise<boolean> => {
    attempt++;
    if (failure.reason === 'end' && (options.reconnectOnEnd === false || attempt > maxRetries)) return false;
    if (attempt > maxRetries) {
      throw new SseError('retries-exhausted', `Gave up after ${attempt - 1} reconnect attempts`, {
        attempts: attempt - 1,
        status: failure.status,
        cause: failure.error,
      });
    }
    const delay = backoffDelay(attempt, stream.retry, {
      maxDelay: options.maxRetryDelay ?? 30_000,
      jitter: options.retryJitter ?? 0.2,
      random: options.random,
      retryAfter,
      maxRetryAfter: options.maxRetryAfter,
    });
    enter({ state: 'waiting', attempt, delay, ...failure });
    options.onRetry?.({ attempt, delay, ...failure });
    // A callback may have closed the stream (an abort it triggered, say): then there is nothing to wait for.
    if (!closed()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return true;
  };

  /** Batches each event `conn` parses, unless it is a replay of one already delivered (same ID, same data). */
  const onEvent = (conn: Attempt, event: SseEvent, hasId: boolean): void => {
    // Only events with an `id:` of their own are remembered and compared.
    const key = hasId && event.id !== '' ? deliveredKey(event.id, event.data) : undefined;
    if (conn.replaying) {
      if (key !== undefined) {
        if (recent.has(key)) {
          conn.inReplayedRun = true;
          return;
        }
        conn.replaying = false;
      } else if (conn.inReplayedRun) {
        return;
      }
    }
    if (key !== undefined) recent.add(key);
    batch.push(event);
  };

  /** The failure of an attempt that was cut off: by its idle timer, else by the network. */
  const dropped = (conn: Attempt, error?: unknown): Failure =>
    conn.idle ? { reason: 'idle-timeout', error: idleError(error) } : { reason: 'network', error };

  /** Lets go of the current attempt (request, body, idle timer), keeping its last event ID. */
  const drop = async (): Promise<void> => {
    const conn = current;
    current = undefined;
    if (conn === undefined) return;
    clearTimeout(conn.timer);
    if (conn.parser !== undefined) {
      conn.parser.end();
      savedId = conn.parser.lastEventId;
    }
    conn.controller.abort();
    await conn.reader?.cancel().catch(ignore);
  };

  /** The idle timer of an attempt, from its request until it is dropped; re-armed lazily, cheaper than per chunk. */
  const armIdle = (conn: Attempt): void => {
    if (!(idleTimeout > 0) || idleTimeout >= MAX_TIMER_DELAY) return;
    const check = (): void => {
      const elapsed = performance.now() - conn.lastActivity;
      if (elapsed < idleTimeout) {
        conn.timer = setTimeout(check, idleTimeout - elapsed);
        return;
      }
      conn.idle = true;
      const error = idleError();
      conn.controller.abort(error);
      conn.reader?.cancel(error).catch(ignore);
    };
    conn.timer = setTimeout(check, idleTimeout);
  };

  const idleError = (cause?: unknown): SseError =>
    // The abort reason is this same error type; do not nest it in itself.
    cause instanceof SseError && cause.type === 'idle-timeout'
      ? cause
      : new SseError('idle-timeout', `No data received for ${idleTimeout} ms`, { cause });

  const stream = batchedEvents(batch, savedId, {
    fill,
    signal: options.signal,
    parsedId: () => current?.parser?.lastEventId ?? savedId,
    retry: () => serverRetry ?? options.retryDelay ?? 1000,
    release: async () => {
      if (state !== 'ended') enter({ state: 'ended', attempt });
      wake?.();
      await drop();
    },
  });
  return stream;
}

/** One connection attempt: its request, and once open its body and parser. */
class Attempt {
  readonly controller = new AbortController();
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  parser?: Parser;
  timer?: ReturnType<typeof setTimeout>;
  /** When bytes last arrived (or the request or the open), for the idle timer. */
  lastActivity = performance.now();
  /** The idle timer fired: the attempt ends as `idle-timeout`. */
  idle = false;
  /** Dropping a replay of delivered events (ends at the first new ID); `inReplayedRun`: one just was. */
  replaying = true;
  inReplayedRun = false;
}

/** Why an attempt ended, as reported to `onRetry` (only the keys that apply), and the server's `Retry-After`. */
type Failure = { reason: RetryReason; status?: number; error?: unknown; retryAfter?: number | undefined };

/** Header values are byte strings, and the spec sends the last event ID "encoded as UTF-8": one char per byte. */
function toByteString(value: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(value)) out += String.fromCharCode(byte);
  return out;
}

function ignore(): void {}
