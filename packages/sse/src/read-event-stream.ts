import { batchedEvents } from './batched-event-iterator.js';
import { SseError } from './errors.js';
import { createParser } from './parser.js';
import type { ParserLimits, SseEvent } from './types.js';

export interface ReadEventStreamOptions extends ParserLimits {
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
export function readEventStream(body: ReadableStream<Uint8Array>, options: ReadEventStreamOptions = {}): EventStream {
  const signal = options.signal;
  const batch: SseEvent[] = [];
  const parser = createParser({
    onEvent: (event) => {
      batch.push(event);
    },
    onComment: options.onComment,
    lastEventId: options.lastEventId,
    maxLineBytes: options.maxLineBytes,
    maxEventBytes: options.maxEventBytes,
  });
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** No more reads: the body ended, failed or was cancelled. */
  let finished = false;
  let abortSignal: AbortSignal | undefined;
  const onAbort = (): void => {
    void stream.close();
  };

  /** Detaches from the signal and the body; `cancel` also discards what the body has not sent yet. */
  const detach = async (cancel: boolean): Promise<void> => {
    // Stryker disable next-line StringLiteral: equivalent, the signal is this stream's own, and a late abort calls the idempotent close()
    abortSignal?.removeEventListener('abort', onAbort);
    if (reader === undefined) {
      // Stryker disable next-line ConditionalExpression,LogicalOperator: the widening variants are equivalent (without a reader, detach always cancels, and cancelling a locked body fails into the ignoring catch); the false one is killed but shares this switch
      if (cancel && !body.locked) await body.cancel().catch(ignore);
      return;
    }
    // Stryker disable next-line ConditionalExpression: the true variant is equivalent (cancelling a body that has ended does nothing); the false one is killed but shares this switch
    if (cancel) await reader.cancel().catch(ignore);
    try {
      reader.releaseLock();
    } catch {
      // Older stream implementations refuse while a read is pending; the stream is cancelled anyway.
    }
  };

  const fill = async (): Promise<boolean> => {
    for (;;) {
      // Stryker disable next-line ConditionalExpression: the false variant is equivalent (the read of a cancelled body ends done and the check after it returns false); the true one is killed but shares this switch
      if (finished) return false;
      if (reader === undefined) {
        if (signal?.aborted) return false;
        reader = body.getReader();
        // A signal of its own: streams sharing one signal would each add a listener to it, past
        // Node's limit of 10 per signal.
        abortSignal = signal && AbortSignal.any([signal]);
        // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, close() is idempotent and detach removes the listener
        abortSignal?.addEventListener('abort', onAbort, { once: true });
      }
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent, a cancelled body's pending read ends done rather than failing
        if (finished) return false;
        throw new SseError('network', 'Reading the event stream failed', { cause: error });
      }
      // Stryker disable next-line ConditionalExpression: the false variant is equivalent (cancelling ends the pending read done, which also returns false); the true one is killed but shares this switch
      if (finished) return false;
      if (result.done) {
        // Stryker disable next-line BooleanLiteral: equivalent, release() then repeats an idempotent detach
        finished = true;
        parser.end();
        // Stryker disable next-line BooleanLiteral: equivalent, cancelling a body that has ended does nothing
        await detach(false);
        return false;
      }
      // A limit error propagates: the body is cancelled, and the events before it are still handed out.
      parser.feed(result.value);
      if (batch.length !== 0) return true;
    }
  };

  // Stryker disable next-line LogicalOperator,StringLiteral: equivalent, the initial ID is only read once an event was handed out, which replaces it
  const stream = batchedEvents(batch, options.lastEventId ?? '', {
    fill,
    parsedId: () => parser.lastEventId,
    retry: () => parser.retry,
    release: async () => {
      // Stryker disable next-line ConditionalExpression: the false variant is equivalent (detaching twice repeats idempotent steps); the true one is killed but shares this switch
      if (finished) return;
      finished = true;
      await detach(true);
    },
  });
  return stream;
}

function ignore(): void {}
