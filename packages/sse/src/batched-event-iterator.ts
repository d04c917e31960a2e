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
  const take = (): IteratorResult<SseEvent, undefined> => {
    const value = batch[index++]!;
    deliveredId = value.id;
    return { done: false, value };
  };
  // A pull is callbacks on `fill`'s own promise rather than an async function around it: one promise
  // and two turns less per pull, which is per event when chunks are small. Each callback clears
  // `pulling` before a `next()` waiting on it runs, so none of those starts a second pull.
  const filled = (
    more: boolean,
  ): IteratorResult<SseEvent, undefined> | Promise<IteratorResult<SseEvent, undefined>> => {
    if (!more) return stop(false);
    pulling = undefined;
    return take();
  };
  const failed = (error: unknown): Promise<IteratorResult<SseEvent, undefined>> => stop(true, error);
  /** The reading is over (`failed`: `fill` threw `error`): release the source, then end or throw. */
  const stop = async (failed: boolean, error?: unknown): Promise<IteratorResult<SseEvent, undefined>> => {
    try {
      await release();
    } finally {
      pulling = undefined;
    }
    if (!failed) return DONE;
    // Hand out what came before the error, then throw it.
    if (batch.length === 0) throw error;
    pendingError = error;
    return take();
  };
  const rethrow = (error: unknown) => (): never => {
    pulling = undefined;
    throw error;
  };

  /** Empties the batch and reads until it holds events again; resolves to the first of them. */
  const pull = (): Promise<IteratorResult<SseEvent, undefined>> => {
    batch.length = 0;
    index = 0;
    if (pendingError !== undefined) {
      const error = pendingError;
      pendingError = undefined;
      return Promise.resolve().then(rethrow(error));
    }
    if (abortSignal?.aborted) return stop(false);
    return source.fill().then(filled, failed);
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
