import { BatchedEventIterator, DONE } from './batched-event-iterator.js';
import { backoffDelay, MAX_TIMER_DELAY } from './backoff.js';
import { readBodyExcerpt } from './body-excerpt.js';
import { SseError } from './errors.js';
import { createEventStreamParser } from './event-stream-parser.js';
import type { EventStreamParser } from './event-stream-parser.js';
import { RecentIds } from './recent-ids.js';
import { classifyResponse } from './response-policy.js';
import type { ParserLimits, SseEvent } from './types.js';

/** The subset of `fetch` used here, so any compatible implementation can be injected. */
export type FetchLike = (input: string | URL, init: RequestInit) => Promise<Response>;

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
  /** Error that ended the previous attempt (`reason: "network"` or `"idle-timeout"`). */
  readonly error?: unknown;
}

export interface OpenInfo {
  readonly response: Response;
  /** 0 for the first open, else the reconnect attempt that succeeded. */
  readonly attempt: number;
}

export interface ConnectEventStreamOptions extends ParserLimits {
  /** @defaultValue `globalThis.fetch` */
  fetch?: FetchLike;
  /**
   * Request headers, or a function computing them before every attempt (it may be
   * async), so a refreshed token is used on reconnect. `Accept`, `Cache-Control`
   * and `Last-Event-ID` are set by the reader and override same-named entries.
   */
  headers?: HeadersInit | ((context: HeadersContext) => HeadersInit | Promise<HeadersInit>);
  /** Other `fetch` options (`credentials`, `mode`, ...). Method is always GET. */
  requestInit?: Omit<RequestInit, 'headers' | 'signal' | 'method' | 'body'>;
  /** Resume from a stored position: sent as `Last-Event-ID` on the first request too. @defaultValue `""` */
  lastEventId?: string;
  /** Aborting closes the connection, clears every timer and ends the iteration normally (no error). */
  signal?: AbortSignal;
  /** Reconnection time until the server sends `retry:`, in ms. @defaultValue 1000 */
  retryDelay?: number;
  /** Cap of the exponential backoff, in ms (a larger server `retry:` still wins). @defaultValue 30000 */
  maxRetryDelay?: number;
  /** Random extra delay, as a fraction of the delay. @defaultValue 0.2 */
  retryJitter?: number;
  /** Cap on a `Retry-After` header, in ms. @defaultValue 60000 */
  maxRetryAfter?: number;
  /**
   * Consecutive reconnect attempts allowed without a successful open; then the
   * iteration throws `retries-exhausted` (or ends, if the last attempt ended
   * normally). @defaultValue Infinity
   */
  maxRetries?: number;
  /**
   * Reconnect after a normal end of the body, as `EventSource` does. With `false`
   * a normal end ends the iteration (errors and idle timeouts still reconnect).
   * @defaultValue true
   */
  reconnectOnEnd?: boolean;
  /** Drop and re-open the connection when no bytes arrive for this long, in ms; 0 disables. @defaultValue 60000 */
  idleTimeout?: number;
  /** How many recent event IDs are remembered to drop replays after a reconnect; 0 disables. @defaultValue 1024 */
  dedupeWindow?: number;
  /** Randomness for the jitter. @defaultValue `Math.random` */
  random?: () => number;
  /** Called after each successful open (status 200, `text/event-stream`). */
  onOpen?: (info: OpenInfo) => void;
  /** Called when a reconnect is scheduled, before waiting. */
  onRetry?: (info: RetryInfo) => void;
  /** Called with each comment's text, e.g. keep-alives. */
  onComment?: (comment: string) => void;
}

/** The reconnecting event stream; iterate it with `for await`. */
export interface EventStreamConnection extends AsyncIterableIterator<SseEvent> {
  /**
   * The last event ID string as of the last event handed out (or all input
   * read, once drained): store it to resume later with `lastEventId`.
   */
  readonly lastEventId: string;
  /** Current reconnection time: the server's last `retry:`, else `retryDelay`. */
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
 * - Waits the reconnection time (server `retry:`, else `retryDelay`), doubled per
 *   consecutive failure up to `maxRetryDelay`, plus jitter; reset by a successful open.
 * - 200 + `text/event-stream` opens; 204 ends the iteration; 408, 429 and 5xx are
 *   retried (at least `Retry-After`, capped by `maxRetryAfter`); anything else
 *   throws `bad-status`/`bad-content-type` with status, content type and the first
 *   512 bytes of the body.
 * - After a reconnect, events whose own `id:` was recently delivered are dropped
 *   (and ID-less events following such a replay), so none is delivered twice.
 * - Abort, `close()` or leaving the loop release the socket and all timers.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#the-eventsource-interface
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#reestablish-the-connection
 */
export function connectEventStream(url: string | URL, options: ConnectEventStreamOptions = {}): EventStreamConnection {
  return new Connection(url, options);
}


interface Failure {
  readonly reason: RetryReason;
  readonly error?: unknown;
  readonly status?: number;
  readonly retryAfter?: number | undefined;
}

class Connection extends BatchedEventIterator implements EventStreamConnection {
  private readonly url: string | URL;
  private readonly options: ConnectEventStreamOptions;
  private readonly fetchImpl: FetchLike;
  private readonly retryDelay: number;
  private readonly idleTimeout: number;
  private readonly maxRetries: number;
  private readonly recent: RecentIds;

  /** Last event ID string while no parser is open. */
  private savedId: string;
  private serverRetry: number | undefined = undefined;

  private closed = false;
  private started = false;
  /** Reconnect attempts since the last successful open. */
  private attempts = 0;
  private lastFailure: Failure | undefined = undefined;
  private pendingError: unknown = undefined;

  private controller: AbortController | undefined = undefined;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined = undefined;
  private parser: EventStreamParser | undefined = undefined;

  private idleTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  private idleFired = false;
  private lastActivity = 0;
  private sleepTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  private wake: (() => void) | undefined = undefined;

  /** After a reconnect: drop events whose `id:` was already delivered. */
  private replaying = false;
  /** In replay mode, a replayed event was just dropped: ID-less followers belong to the replay. */
  private inReplayedRun = false;

  private readonly onAbort = (): void => {
    void this.close();
  };

  constructor(url: string | URL, options: ConnectEventStreamOptions) {
    super(options.lastEventId ?? '');
    this.url = url;
    this.options = options;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.retryDelay = options.retryDelay ?? 1000;
    this.idleTimeout = options.idleTimeout ?? 60_000;
    this.maxRetries = options.maxRetries ?? Number.POSITIVE_INFINITY;
    this.recent = new RecentIds(options.dedupeWindow ?? 1024);
    this.savedId = options.lastEventId ?? '';
  }

  protected get parsedId(): string {
    return this.parser !== undefined ? this.parser.lastEventId : this.savedId;
  }

  get retry(): number {
    return this.serverRetry ?? this.retryDelay;
  }

  async close(): Promise<void> {
    this.freeze();
    this.pendingError = undefined;
    await this.shutdown();
  }

  /** Releases the socket, timers and abort listener; keeps already parsed events. */
  private async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.clearSleep();
    await this.dropConnection();
  }

  protected async pull(): Promise<IteratorResult<SseEvent, undefined>> {
    const batch = this.batch;
    batch.length = 0;
    this.index = 0;
    if (!this.started) {
      this.started = true;
      const signal = this.options.signal;
      if (signal?.aborted) {
        await this.close();
        return DONE;
      }
      signal?.addEventListener('abort', this.onAbort, { once: true });
    }
    for (;;) {
      if (this.pendingError !== undefined) {
        const error = this.pendingError;
        this.pendingError = undefined;
        throw error;
      }
      if (this.closed) return DONE;
      if (this.reader === undefined && !(await this.open())) return DONE;
      const reader = this.reader!;
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        if (this.closed) return DONE;
        await this.fail(this.idleFired ? { reason: 'idle-timeout', error: idleError(this.idleTimeout, error) } : { reason: 'network', error });
        continue;
      }
      if (this.closed) return DONE;
      if (result.done) {
        if (this.idleFired) {
          await this.fail({ reason: 'idle-timeout', error: idleError(this.idleTimeout) });
        } else if (this.options.reconnectOnEnd === false) {
          await this.close();
          return DONE;
        } else {
          await this.fail({ reason: 'end' });
        }
        continue;
      }
      this.lastActivity = now();
      try {
        this.parser!.feed(result.value);
      } catch (error) {
        // A limit was exceeded: release the connection now, hand out what came before, then throw.
        await this.shutdown();
        if (batch.length === 0) throw error;
        this.pendingError = error;
      }
      if (batch.length !== 0) {
        const value = batch[this.index++]!;
        this.deliveredId = value.id;
        return { done: false, value };
      }
    }
  }

  /**
   * Makes attempts until one opens (true) or the stream ends for good (false);
   * throws on a fatal status or when `maxRetries` is exhausted.
   */
  private async open(): Promise<boolean> {
    const options = this.options;
    for (;;) {
      if (this.closed) return false;
      const failure = this.lastFailure;
      if (failure !== undefined) {
        this.attempts++;
        if (this.attempts > this.maxRetries) {
          await this.close();
          if (failure.reason === 'end') return false;
          throw new SseError('retries-exhausted', `Gave up after ${this.attempts - 1} reconnect attempts`, {
            attempts: this.attempts - 1,
            status: failure.status,
            cause: failure.error,
          });
        }
        let delay = backoffDelay(this.attempts, this.retry, {
          maxDelay: options.maxRetryDelay ?? 30_000,
          jitter: options.retryJitter ?? 0.2,
          random: options.random ?? Math.random,
        });
        if (failure.retryAfter !== undefined) {
          delay = Math.max(delay, Math.min(failure.retryAfter, options.maxRetryAfter ?? 60_000));
        }
        options.onRetry?.({
          attempt: this.attempts,
          delay,
          reason: failure.reason,
          ...(failure.status === undefined ? {} : { status: failure.status }),
          ...(failure.error === undefined ? {} : { error: failure.error }),
        });
        await this.sleep(delay);
        if (this.closed) return false;
      }

      const lastEventId = this.savedId;
      const controller = new AbortController();
      this.controller = controller;
      this.armIdle();
      let headers: Headers;
      try {
        headers = await this.buildHeaders(lastEventId);
      } catch (error) {
        // The caller's own code failed (e.g. a token refresh): not ours to retry.
        await this.close();
        throw error;
      }
      if (this.closed) return false;
      let response: Response;
      try {
        response = await this.fetchImpl(this.url, {
          ...options.requestInit,
          method: 'GET',
          headers,
          signal: controller.signal,
        });
      } catch (error) {
        if (this.closed) return false;
        this.recordFailure(
          this.idleFired ? { reason: 'idle-timeout', error: idleError(this.idleTimeout, error) } : { reason: 'network', error },
        );
        continue;
      }
      if (this.closed) {
        response.body?.cancel().catch(ignore);
        return false;
      }
      const verdict = classifyResponse(response.status, response.headers);
      if (verdict.kind === 'open' && response.body !== null) {
        this.startParser(lastEventId);
        this.reader = response.body.getReader();
        const attempt = this.attempts;
        this.replaying = this.lastFailure !== undefined && this.recent.size > 0;
        this.inReplayedRun = false;
        this.attempts = 0;
        this.lastFailure = undefined;
        this.lastActivity = now();
        try {
          options.onOpen?.({ response, attempt });
        } catch (error) {
          await this.close();
          throw error;
        }
        return true;
      }
      if (verdict.kind === 'open') {
        // 200 without a body: nothing to read, same as an immediate end.
        this.recordFailure({ reason: 'end' });
        continue;
      }
      if (verdict.kind === 'end') {
        response.body?.cancel().catch(ignore);
        await this.close();
        return false;
      }
      if (verdict.kind === 'retry') {
        response.body?.cancel().catch(ignore);
        this.recordFailure({ reason: 'status', status: response.status, retryAfter: verdict.retryAfter });
        continue;
      }
      const contentType = response.headers.get('content-type');
      const bodyExcerpt = await readBodyExcerpt(response.body);
      await this.close();
      throw new SseError(
        verdict.type,
        verdict.type === 'bad-status'
          ? `Event stream request failed with status ${response.status}`
          : `Event stream response has content type ${JSON.stringify(contentType)}, expected text/event-stream`,
        { status: response.status, contentType, bodyExcerpt },
      );
    }
  }

  private async buildHeaders(lastEventId: string): Promise<Headers> {
    const option = this.options.headers;
    const init =
      typeof option === 'function' ? await option({ attempt: this.lastFailure === undefined ? 0 : this.attempts, lastEventId }) : option;
    const headers = new Headers(init);
    // A caller may widen Accept (say, to JSON for error bodies); the stream itself is SSE.
    if (!headers.has('Accept')) headers.set('Accept', 'text/event-stream');
    headers.set('Cache-Control', 'no-cache');
    if (lastEventId !== '') headers.set('Last-Event-ID', toByteString(lastEventId));
    else headers.delete('Last-Event-ID');
    return headers;
  }

  private startParser(lastEventId: string): void {
    const batch = this.batch;
    const recent = this.recent;
    this.parser = createEventStreamParser({
      lastEventId,
      maxLineBytes: this.options.maxLineBytes,
      maxEventBytes: this.options.maxEventBytes,
      onComment: this.options.onComment,
      onRetry: (milliseconds) => {
        this.serverRetry = milliseconds;
      },
      onEvent: (event, hasId) => {
        const explicitId = hasId && event.id !== '';
        if (this.replaying) {
          if (explicitId) {
            if (recent.has(event.id)) {
              this.inReplayedRun = true;
              return;
            }
            this.replaying = false;
          } else if (this.inReplayedRun) {
            return;
          }
        }
        if (explicitId) recent.add(event.id);
        batch.push(event);
      },
    });
  }

  /** Ends the current attempt (keeping its last event ID) and records why, for the next `open()`. */
  private async fail(failure: Failure): Promise<void> {
    this.recordFailure(failure);
    await this.dropConnection();
  }

  private recordFailure(failure: Failure): void {
    this.lastFailure = failure;
    this.disarmIdle();
  }

  private async dropConnection(): Promise<void> {
    this.disarmIdle();
    const parser = this.parser;
    if (parser !== undefined) {
      parser.end();
      this.savedId = parser.lastEventId;
      this.parser = undefined;
    }
    this.controller?.abort();
    this.controller = undefined;
    const reader = this.reader;
    this.reader = undefined;
    if (reader !== undefined) await reader.cancel().catch(ignore);
  }

  private armIdle(): void {
    this.disarmIdle();
    this.idleFired = false;
    const timeout = this.idleTimeout;
    if (!(timeout > 0) || timeout >= MAX_TIMER_DELAY) return;
    this.lastActivity = now();
    this.idleTimer = setTimeout(this.checkIdle, timeout);
  }

  /** One timer per connection, re-armed lazily: cheaper than resetting a timer on every chunk. */
  private readonly checkIdle = (): void => {
    this.idleTimer = undefined;
    const elapsed = now() - this.lastActivity;
    if (elapsed < this.idleTimeout) {
      this.idleTimer = setTimeout(this.checkIdle, this.idleTimeout - elapsed);
      return;
    }
    this.idleFired = true;
    const error = idleError(this.idleTimeout);
    this.controller?.abort(error);
    this.reader?.cancel(error).catch(ignore);
  };

  private disarmIdle(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private sleep(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.sleepTimer = setTimeout(() => {
        this.sleepTimer = undefined;
        this.wake = undefined;
        resolve();
      }, milliseconds);
    });
  }

  private clearSleep(): void {
    if (this.sleepTimer !== undefined) clearTimeout(this.sleepTimer);
    this.sleepTimer = undefined;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/**
 * Header values are byte strings; the spec sends the last event ID "encoded as
 * UTF-8", so a non-ASCII ID goes out as its UTF-8 bytes, one char per byte.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#the-eventsource-interface
 */
function toByteString(value: string): string {
  if (/^[\x00-\x7f]*$/.test(value)) return value;
  let out = '';
  for (const byte of new TextEncoder().encode(value)) out += String.fromCharCode(byte);
  return out;
}

function idleError(timeout: number, cause?: unknown): SseError {
  // The abort reason is this same error type; do not nest it in itself.
  if (cause instanceof SseError && cause.type === 'idle-timeout') return cause;
  return new SseError('idle-timeout', `No data received for ${timeout} ms`, { cause });
}

function now(): number {
  return performance.now();
}

function ignore(): void {}
