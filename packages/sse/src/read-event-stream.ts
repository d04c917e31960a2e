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
    abortSignal?.removeEventListener('abort', onAbort);
    if (reader === undefined) {
      if (cancel && !body.locked) await body.cancel().catch(ignore);
      return;
    }
    if (cancel) await reader.cancel().catch(ignore);
    try {
      reader.releaseLock();
    } catch {
      // Older stream implementations refuse while a read is pending; the stream is cancelled anyway.
    }
  };

  const fill = async (): Promise<boolean> => {
    for (;;) {
      if (finished) return false;
      if (reader === undefined) {
        if (signal?.aborted) return false;
        reader = body.getReader();
        // A signal of its own: streams sharing one signal would each add a listener to it, past
        // Node's limit of 10 per signal.
        abortSignal = signal && AbortSignal.any([signal]);
        abortSignal?.addEventListener('abort', onAbort, { once: true });
      }
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        if (finished) return false;
        throw new SseError('network', 'Reading the event stream failed', { cause: error });
      }
      if (finished) return false;
      if (result.done) {
        finished = true;
        parser.end();
        await detach(false);
        return false;
      }
      // A limit error propagates: the body is cancelled, and the events before it are still handed out.
      parser.feed(result.value);
      if (batch.length !== 0) return true;
    }
  };

  const stream = batchedEvents(batch, options.lastEventId ?? '', {
    fill,
    parsedId: () => parser.lastEventId,
    retry: () => parser.retry,
    release: async () => {
      if (finished) return;
      finished = true;
      await detach(true);
    },
  });
  return stream;
}

function ignore(): void {}
