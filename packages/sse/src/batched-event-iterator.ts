import type { SseEvent } from './types.js';

export const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The iterator half that `parseEventStream` and `connectEventStream` share. A chunk's events are
 * parsed into a batch in one go and handed out from it synchronously, so the per-event cost is
 * one resolved promise; reads of the next chunk are serialised, so none is read twice or out of
 * order. `lastEventId` is the ID of the event handed out last, not of one merely parsed.
 */
export abstract class BatchedEventIterator implements AsyncIterableIterator<SseEvent, undefined> {
  protected readonly batch: SseEvent[] = [];
  protected index = 0;
  /** `lastEventId` frozen by `close()`. */
  private closedId: string | undefined = undefined;
  /** `lastEventId` of the event handed out last, while the batch is not drained. */
  protected deliveredId: string;
  private pulling: Promise<IteratorResult<SseEvent, undefined>> | undefined = undefined;

  constructor(lastEventId: string) {
    this.deliveredId = lastEventId;
  }

  /** The last event ID the parser has seen (once the batch is drained, it is the caller's too). */
  protected abstract get parsedId(): string;
  /** Empties the batch, reads until it holds events again, and returns the first of them. */
  protected abstract pull(): Promise<IteratorResult<SseEvent, undefined>>;
  abstract close(): Promise<void>;

  get lastEventId(): string {
    if (this.closedId !== undefined) return this.closedId;
    return this.index < this.batch.length ? this.deliveredId : this.parsedId;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<SseEvent, undefined>> {
    const batch = this.batch;
    if (this.index < batch.length) {
      const value = batch[this.index++]!;
      this.deliveredId = value.id;
      return Promise.resolve({ done: false, value });
    }
    if (this.pulling !== undefined) return this.pulling.then(() => this.next());
    const pulling = this.pull();
    this.pulling = pulling;
    const clear = (): void => {
      if (this.pulling === pulling) this.pulling = undefined;
    };
    pulling.then(clear, clear);
    return pulling;
  }

  async return(): Promise<IteratorResult<SseEvent, undefined>> {
    await this.close();
    return DONE;
  }

  /** For `close()`: events parsed but never handed out must not count as seen. */
  protected freeze(): void {
    this.closedId ??= this.lastEventId;
    this.batch.length = 0;
    this.index = 0;
  }
}
