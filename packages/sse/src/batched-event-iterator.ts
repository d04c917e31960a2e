import type { SseEvent } from './event-parser.js';

export const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** What {@link batchedEvents} asks of the reader under it (a body, or a reconnecting connection). */
export interface BatchSource<R> {
  /** Reads until the batch holds events (`true`) or the stream is over (`false`); may throw (see below). */
  fill(): Promise<boolean>;
  /** The last event ID the parser has seen (once the batch is drained, it is the caller's too). */
  parsedId(): string;
  retry(): R;
  /** Releases the socket, body and timers; called on `close()` and whenever `fill` ends or throws. */
  release(): Promise<void>;
  /** The caller's signal: its abort closes the stream, which then ends without an error. */
  readonly signal?: AbortSignal | undefined;
}

/** The iterator that `readEventStream` and `connectEventStream` return; iterate it with `for await`. */
export interface BatchedEvents<R> extends AsyncIterableIterator<SseEvent, undefined> {
  /** The last event ID as of the last event handed out (or all input, once drained): store it to resume. */
  readonly lastEventId: string;
  /** The reconnection time in milliseconds (see each reader). */
  readonly retry: R;
  /** Stops reading and cancels the body or connection; pending `next()` calls resolve as done. */
  close(): Promise<void>;
}

/**
 * The iterator half of both readers. A chunk's events are parsed into `batch` at once and handed
 * out from it, so an event costs one resolved promise; reads are serialised; an error `fill` throws
 * is thrown after the events parsed before it. Events parsed but never handed out do not move `lastEventId`.
 */
export function batchedEvents<R>(batch: SseEvent[], lastEventId: string, source: BatchSource<R>): BatchedEvents<R> {
  let index = 0;
  /** `lastEventId` of the event handed out last, while the batch is not drained. */
  let deliveredId = lastEventId;
  /** `lastEventId` frozen by `close()`. */
  let closedId: string | undefined;
  /** An error held back until the events parsed before it are handed out. */
  let pendingError: unknown;
  let pulling: Promise<IteratorResult<SseEvent, undefined>> | undefined;

  // A signal of its own: streams sharing the caller's would each add a listener to it, past Node's limit of 10.
  const abortSignal = source.signal && AbortSignal.any([source.signal]);
  const onAbort = (): void => void stream.close();
  abortSignal?.addEventListener('abort', onAbort, { once: true });
  const release = (): Promise<void> => {
    abortSignal?.removeEventListener('abort', onAbort);
    return source.release();
  };
  const unpull = (): void => {
    pulling = undefined;
  };
  const take = (): IteratorResult<SseEvent, undefined> => {
    const value = batch[index++]!;
    deliveredId = value.id;
    return { done: false, value };
  };

  /** Empties the batch, reads until it holds events again, and returns the first of them. */
  const pull = async (): Promise<IteratorResult<SseEvent, undefined>> => {
    batch.length = 0;
    index = 0;
    if (pendingError !== undefined) {
      const error = pendingError;
      pendingError = undefined;
      throw error;
    }
    try {
      if (!abortSignal?.aborted && (await source.fill())) return take();
    } catch (error) {
      // Free the connection now; hand out what came before the error, then throw it.
      await release();
      if (batch.length === 0) throw error;
      pendingError = error;
      return take();
    }
    await release();
    return DONE;
  };

  const stream: BatchedEvents<R> = {
    get lastEventId() {
      return closedId ?? (index < batch.length ? deliveredId : source.parsedId());
    },
    get retry() {
      return source.retry();
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
    next() {
      if (index < batch.length) return Promise.resolve(take());
      if (pulling !== undefined) return pulling.then(() => stream.next());
      pulling = pull();
      // The first callback once it settles, so no later pull is cleared.
      pulling.then(unpull, unpull);
      return pulling;
    },
    async return() {
      await stream.close();
      return DONE;
    },
    async close() {
      closedId ??= stream.lastEventId;
      batch.length = 0;
      index = 0;
      pendingError = undefined;
      await release();
    },
  };
  return stream;
}
