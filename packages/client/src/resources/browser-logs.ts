import type { ErrorObject, LogEvent, LogStreamQueryBySource } from '@browser-cloud/api-types';
import {
  validateLogEvent,
  validateLogStreamQuery,
  validateStreamBrowserLogsPath,
} from '@browser-cloud/api-types/validators';
import { connectEventStream, type JsonEventStream, parseJsonEvents, SseError } from '@browser-cloud/sse';
import { errorFromResponse } from '../error-body.js';
import {
  type ApiError,
  APIConnectionError,
  APIConnectionTimeoutError,
  BrowserCloudError,
  describeConnectionFailure,
} from '../errors.js';
import { redactCause } from '../redact.js';
import type { RequestOptions } from '../request.js';
import { INITIAL_RETRY_DELAY_MS, MAX_RETRY_AFTER_MS, MAX_RETRY_DELAY_MS } from '../retry.js';
import { check, toIssues } from '../validation.js';
import type { ResourceContext } from './context.js';

/** Options of {@link BrowserLogs.stream}. */
export interface LogStreamOptions extends RequestOptions {
  /**
   * For the stream this is an idle timeout, not a total one: the connection is dropped (and
   * re-opened with `Last-Event-ID`) when no byte arrives for this long, including while waiting
   * for the response headers. Default: the client's `timeoutMs` (60 s); 0 disables it.
   */
  timeoutMs?: number | undefined;
  /**
   * Consecutive failed (re)connection attempts allowed before the iteration throws; a
   * successful open resets the count. Default: the client's `maxRetries` (2).
   */
  maxRetries?: number | undefined;
  /** Resume after this event: sent as `Last-Event-ID` on the first request. */
  lastEventId?: string | undefined;
}

/** The async iterable of log events that {@link BrowserLogs.stream} returns. */
export interface LogStream extends AsyncIterableIterator<LogEvent> {
  /**
   * SSE ID of the last event handed out (`""` when none): pass it as `lastEventId` to a new
   * `stream()` call to resume where this one stopped.
   */
  readonly lastEventId: string;
  /** Closes the connection and ends the iteration; safe to call any time. */
  close(): Promise<void>;
}

/** `client.browsers.logs`: a browser session's log files. */
export interface BrowserLogs {
  /**
   * Streams log events of the browser session `id` (GET /browsers/{id}/logs/stream, server-sent
   * events). The request starts on the first `next()`; `id` and `query` are checked at once,
   * synchronously (ValidationError).
   *
   * - Yields each event's data as a LogEvent; heartbeat objects (`sse_heartbeat`) and comment
   *   lines are skipped. `lastEventId` on the returned stream is the SSE ID of the last one.
   * - A dropped connection, an idle timeout, 408, 429 and 5xx are reconnected with
   *   `Last-Event-ID`, with backoff (0.5 s doubling to 8 s, or the server's `retry:` /
   *   `Retry-After`), up to `maxRetries` consecutive failures.
   * - With `follow: true` a normal end of the body is reconnected too (the server keeps the
   *   stream going). Without `follow`, a normal end of the body ends the iteration.
   * - Aborting `signal`, `close()` or leaving the loop closes the connection and ends the
   *   iteration without an error.
   * - Other statuses throw the matching ApiError subclass; exhausted reconnects throw
   *   APIConnectionError (APIConnectionTimeoutError after idle timeouts).
   */
  stream(id: string, query: LogStreamQueryBySource, options?: LogStreamOptions): LogStream;
}

export function browserLogs(context: ResourceContext): BrowserLogs {
  return {
    stream(id, query, options = {}) {
      check(validateStreamBrowserLogsPath, { id }, 'path');
      check(validateLogStreamQuery, query, 'query');
      return new BrowserLogStream(context, id, query, options);
    },
  };
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

const STREAM_ACCEPT = 'text/event-stream, application/json;q=0.9';

class BrowserLogStream implements LogStream {
  private readonly events: JsonEventStream<LogEvent>;
  private readonly context: ResourceContext;
  private readonly idleTimeoutMs: number;
  /** The ApiError of the last non-2xx response, built from a bounded read of its body. */
  private refused: ApiError | undefined = undefined;

  constructor(context: ResourceContext, id: string, query: LogStreamQueryBySource, options: LogStreamOptions) {
    this.context = context;
    this.idleTimeoutMs = options.timeoutMs ?? context.timeoutMs;
    const follow = query.follow === true;
    // The URL only names the stream for the reader: the requests themselves are built below.
    const connection = connectEventStream(`${context.baseUrl}/browsers/${encodeURIComponent(id)}/logs/stream`, {
      // Each (re)connection goes through openapi-fetch: same URL building, same authenticated transport.
      fetch: async (_url, init) => {
        const { response } = await context.raw.GET('/browsers/{id}/logs/stream', {
          params: { path: { id }, query },
          parseAs: 'stream',
          headers: init.headers as Headers,
          signal: init.signal ?? null,
          // A refused answer's body is read here, bounded, before openapi-fetch would read it whole;
          // the reader gets the status and headers without it.
          fetch: async (request: Request) => {
            const answer = await context.send(request);
            if (answer.ok) return answer;
            this.refused = await errorFromResponse(answer, context.secret);
            return new Response(null, { status: answer.status, headers: answer.headers });
          },
        });
        return response;
      },
      // Errors come as JSON bodies: say so, so that servers (and Prism) may answer them.
      headers: { Accept: STREAM_ACCEPT, ...options.headers },
      // Without `follow` a normal end of the body is the end of the log.
      reconnectOnEnd: follow,
      lastEventId: options.lastEventId ?? '',
      signal: options.signal,
      idleTimeout: this.idleTimeoutMs,
      maxRetries: options.maxRetries ?? context.maxRetries,
      retryDelay: INITIAL_RETRY_DELAY_MS,
      maxRetryDelay: MAX_RETRY_DELAY_MS,
      maxRetryAfter: MAX_RETRY_AFTER_MS,
      retryJitter: 0.25,
    });
    this.events = parseJsonEvents<LogEvent>(connection, { validate: validateLogEvent });
  }

  get lastEventId(): string {
    return this.events.lastEventId;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<LogEvent, undefined>> {
    try {
      const result = await this.events.next();
      return result.done === true ? DONE : { done: false, value: result.value.data };
    } catch (error) {
      throw this.translate(error);
    }
  }

  async return(): Promise<IteratorResult<LogEvent, undefined>> {
    await this.close();
    return DONE;
  }

  close(): Promise<void> {
    return this.events.close();
  }

  /** Maps the reader's failures onto this package's errors, without the token. */
  private translate(error: unknown): BrowserCloudError {
    const secret = this.context.secret;
    if (!(error instanceof SseError)) {
      return error instanceof BrowserCloudError
        ? error
        : new APIConnectionError('Log stream failed.', { cause: redactCause(error, secret) });
    }
    if (error.type === 'invalid-data' || error.type === 'invalid-json') {
      // Said as ValidationError says it (`event.message: is required`), from the same Ajv errors.
      const issues = Array.isArray(error.validationErrors)
        ? toIssues(error.validationErrors as ErrorObject[], error.value, 'event')
        : [];
      const why = issues.map((issue) => issue.message).join('; ') || error.message;
      return new BrowserCloudError(
        `Log stream event${error.id ? ` ${error.id}` : ''} is not a LogEvent of the document: ${why}`,
        {
          cause: redactCause(error, secret),
        },
      );
    }
    const refused = this.refused;
    if (error.type === 'bad-status' || (error.type === 'retries-exhausted' && error.status !== undefined)) {
      if (refused) return refused;
    }
    if (error.type === 'retries-exhausted') {
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof SseError && cause.type === 'idle-timeout') {
        return new APIConnectionTimeoutError(this.idleTimeoutMs);
      }
      const clean = redactCause(cause, secret);
      const why = describeConnectionFailure(clean);
      return new APIConnectionError(`Log stream connection failed: ${error.message}${why ? ` (${why})` : ''}.`, {
        cause: clean,
      });
    }
    return new BrowserCloudError(`Log stream failed: ${error.message}`, { cause: redactCause(error, secret) });
  }
}
