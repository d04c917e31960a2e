import { BatchedEventIterator, DONE } from './batched-event-iterator.js';
import { SseError } from './errors.js';
import { createEventStreamParser } from './event-stream-parser.js';
import type { EventStreamParser } from './event-stream-parser.js';
import type { ParserLimits, SseEvent } from './types.js';

export interface ParseEventStreamOptions extends ParserLimits {
  /** Initial last event ID, e.g. when resuming a stored position. @defaultValue `""` */
  lastEventId?: string;
  /** Aborting cancels the body and ends the iteration without an error. */
  signal?: AbortSignal;
  /** Called with each comment's text (after the colon and one optional space). */
  onComment?: (comment: string) => void;
}

/**
 * Async iterable of the events of one response body. Also an iterator, so
 * `lastEventId` and `retry` can be read while or after looping.
 */
export interface EventStream extends AsyncIterableIterator<SseEvent> {
  /** Last event ID string after the last event handed out (or all input, once ended). */
  readonly lastEventId: string;
  /** Last valid `retry` value the server sent, in milliseconds. */
  readonly retry: number | undefined;
  /** Stops reading and cancels the body; pending `next()` calls resolve as done. */
  close(): Promise<void>;
}

/**
 * Parses a `text/event-stream` body into events.
 *
 * Reads with `body.getReader()` (Safari has no async iteration of streams).
 * Each chunk is parsed synchronously into a batch that later `next()` calls serve
 * from memory, so the per-event cost is one resolved promise. Leaving a
 * `for await` loop early (`break`, `return`, a throw) cancels the body. A body
 * read error is rethrown as `SseError` `network`; a limit error cancels the body
 * first, then is thrown after the events that preceded it.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
export function parseEventStream(body: ReadableStream<Uint8Array>, options: ParseEventStreamOptions = {}): EventStream {
  return new BodyEventStream(body, options);
}

class BodyEventStream extends BatchedEventIterator implements EventStream {
  private readonly body: ReadableStream<Uint8Array>;
  private readonly signal: AbortSignal | undefined;
  private readonly parser: EventStreamParser;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined = undefined;
  private finished = false;
  private failure: unknown = undefined;
  private readonly onAbort = (): void => {
    void this.close();
  };

  constructor(body: ReadableStream<Uint8Array>, options: ParseEventStreamOptions) {
    super(options.lastEventId ?? '');
    this.body = body;
    this.signal = options.signal;
    const batch = this.batch;
    this.parser = createEventStreamParser({
      onEvent: (event) => {
        batch.push(event);
      },
      onComment: options.onComment,
      lastEventId: options.lastEventId,
      maxLineBytes: options.maxLineBytes,
      maxEventBytes: options.maxEventBytes,
    });
  }

  protected get parsedId(): string {
    return this.parser.lastEventId;
  }

  get retry(): number | undefined {
    return this.parser.retry;
  }

  async close(): Promise<void> {
    this.freeze();
    this.failure = undefined;
    if (this.finished) return;
    this.finished = true;
    await this.release(true);
  }

  protected async pull(): Promise<IteratorResult<SseEvent, undefined>> {
    const batch = this.batch;
    batch.length = 0;
    this.index = 0;
    for (;;) {
      if (this.failure !== undefined) {
        const failure = this.failure;
        this.failure = undefined;
        throw failure;
      }
      if (this.finished) return DONE;
      let reader = this.reader;
      if (reader === undefined) {
        if (this.signal?.aborted) {
          await this.close();
          return DONE;
        }
        reader = this.body.getReader();
        this.reader = reader;
        this.signal?.addEventListener('abort', this.onAbort, { once: true });
      }
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        if (this.finished) return DONE;
        this.finished = true;
        await this.release(true);
        throw new SseError('network', 'Reading the event stream failed', { cause: error });
      }
      if (this.finished) return DONE;
      try {
        if (result.done) {
          this.finished = true;
          this.parser.end();
          await this.release(false);
        } else {
          this.parser.feed(result.value);
        }
      } catch (error) {
        // Limit errors: free the connection now, hand out the events parsed before the error, then throw.
        this.finished = true;
        await this.release(true);
        if (batch.length === 0) throw error;
        this.failure = error;
      }
      if (batch.length !== 0) {
        const value = batch[this.index++]!;
        this.deliveredId = value.id;
        return { done: false, value };
      }
    }
  }

  private async release(cancel: boolean): Promise<void> {
    this.signal?.removeEventListener('abort', this.onAbort);
    const reader = this.reader;
    if (reader === undefined) {
      if (cancel && !this.body.locked) await this.body.cancel().catch(ignore);
      return;
    }
    if (cancel) await reader.cancel().catch(ignore);
    try {
      reader.releaseLock();
    } catch {
      // Older stream implementations refuse while a read is pending; the stream is cancelled anyway.
    }
  }
}

function ignore(): void {}
