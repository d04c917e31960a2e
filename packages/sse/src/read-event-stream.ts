import { type BatchedEvents, batchedEvents } from './batched-event-iterator.js';
import { SseError } from './errors.js';
import { createParser, type ParserLimits } from './parser.js';
import type { EventParserOptions, SseEvent } from './event-parser.js';

export interface ReadEventStreamOptions extends ParserLimits, Pick<EventParserOptions, 'lastEventId' | 'onComment'> {
  /** Aborting cancels the body and ends the iteration without an error. */
  signal?: AbortSignal | undefined;
}

/** The events of one body; `retry` is the last valid `retry:` the server sent. */
export type EventStream = BatchedEvents<number | undefined>;

/**
 * Parses a `text/event-stream` body into events, read with `body.getReader()` (Safari cannot iterate
 * a stream). A read error is thrown as `SseError` `network`, after the events that preceded it.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
export function readEventStream(body: ReadableStream<Uint8Array>, options: ReadEventStreamOptions = {}): EventStream {
  const batch: SseEvent[] = [];
  const parser = createParser({ ...options, onEvent: (event) => batch.push(event) });
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** No more reads: the body ended, failed or was cancelled. */
  let finished = false;

  const fill = async (): Promise<boolean> => {
    if (finished) return false;
    reader ??= body.getReader();
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        if (finished) return false;
        throw new SseError('network', 'Reading the event stream failed', { cause: error });
      }
      if (finished) return false;
      if (result.done) {
        parser.end();
        return false;
      }
      // A limit error propagates: the body is cancelled, and the events before it are still handed out.
      parser.feed(result.value);
      if (batch.length !== 0) return true;
    }
  };

  return batchedEvents(batch, options.lastEventId ?? '', {
    fill,
    signal: options.signal,
    parsedId: () => parser.lastEventId,
    retry: () => parser.retry,
    // Lets go of the body, discarding what it has not sent yet.
    release: async () => {
      if (finished) return;
      finished = true;
      // Without a reader of ours, a body someone else locked refuses the cancel, which is ignored.
      await (reader ?? body).cancel().catch(() => {});
      try {
        reader?.releaseLock();
      } catch {
        // Older stream implementations refuse while a read is pending; the stream is cancelled anyway.
      }
    },
  });
}
