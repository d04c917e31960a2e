import { limitError } from './errors.js';
import type { LineSink } from './line-decoder.js';
import { utf8ByteLength } from './utf8-byte-length.js';

/**
 * One dispatched event, as the WHATWG "dispatch the event" step builds it.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#dispatchMessage
 */
export interface SseEvent {
  /** Event type: the last `event:` field of the block, or `"message"` when none or empty. */
  event: string;
  /** `data:` lines of the block joined with LF (no trailing LF). */
  data: string;
  /** Last event ID in effect when the event was dispatched; `""` when none. */
  id: string;
  /** Reconnection time (ms) from a valid `retry:` field in this event's block, if any. */
  retry?: number;
}

export interface EventParserOptions {
  /**
   * Called for every dispatched event. `hasId` tells whether the event's own
   * block had an `id` field (as opposed to inheriting the last event ID), which
   * the reconnecting reader needs to recognise replayed events.
   */
  onEvent: (event: SseEvent, hasId: boolean) => void;
  /** Called with the new reconnection time when a valid `retry` field is seen. */
  onRetry?: ((milliseconds: number) => void) | undefined;
  /** Called with each comment's text (after the colon and one optional space). */
  onComment?: ((comment: string) => void) | undefined;
  /** Initial last event ID, e.g. when resuming a stored position. @defaultValue `""` */
  lastEventId?: string | undefined;
  /** Largest accepted event data in UTF-8 bytes (the `data:` values and the LFs joining them). @defaultValue 8 MiB */
  maxEventBytes?: number | undefined;
}

/** 8 MiB: room for a few maximal lines joined into one event. */
export const DEFAULT_MAX_EVENT_BYTES = 8 * 1024 * 1024;

const COLON = 58;
const SPACE = 32;

/**
 * Lines to events: the WHATWG "Interpreting an event stream" algorithm, pure and
 * synchronous. Feed it lines through {@link EventParser.line} (it is a
 * {@link LineSink}), and a blank line dispatches.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export class EventParser implements LineSink {
  /**
   * The "last event ID string": the ID buffer as of the last dispatch, so it
   * moves even on a block without data, but not on an unterminated final block.
   * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#dispatchMessage
   */
  lastEventId: string;
  /** Last valid `retry` value seen, in milliseconds. */
  retry: number | undefined = undefined;

  readonly #onEvent: (event: SseEvent, hasId: boolean) => void;
  readonly #onRetry: ((milliseconds: number) => void) | undefined;
  readonly #onComment: ((comment: string) => void) | undefined;
  readonly #maxEventBytes: number;
  readonly #maxUncountedUnits: number;

  /**
   * The "last event ID buffer". It is deliberately not reset on dispatch.
   * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
   */
  #idBuffer: string;
  #typeBuffer = '';
  #data = '';
  /** Number of `data` fields in the current block; the data buffer is "empty" iff 0. */
  #dataLines = 0;
  /** Exact UTF-8 size of `data`, or -1 while `dataUnits` is too small to need it. */
  #dataBytes = -1;
  #blockRetry: number | undefined = undefined;
  #blockHasId = false;

  constructor(options: EventParserOptions) {
    this.#onEvent = options.onEvent;
    this.#onRetry = options.onRetry;
    this.#onComment = options.onComment;
    this.lastEventId = options.lastEventId ?? '';
    this.#idBuffer = this.lastEventId;
    this.#maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.#maxUncountedUnits = Math.floor(this.#maxEventBytes / 3);
  }

  /**
   * Processes one line, `text.slice(start, end)`: a blank line dispatches; a line starting with a
   * colon is a comment; otherwise the field name runs to the first colon (the whole line if there
   * is none, with an empty value) and is compared literally (no case folding). Unknown fields are
   * ignored.
   *
   * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
   */
  line(text: string, start: number, end: number, ascii = false): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    let colon = start;
    // Bounded by `end`: `indexOf(':')` could run into later lines and go quadratic.
    while (colon < end && text.charCodeAt(colon) !== COLON) colon++;
    // One leading space of the value is dropped; slicing past `end` gives ''.
    const value = text.slice(colon + 1 < end && text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1, end);
    // By length first, so that no field name is sliced out: these are nearly every line.
    const name = colon - start;
    if (name === 4 && text.startsWith('data', start)) this.#appendData(value, ascii);
    else if (name === 5 && text.startsWith('event', start)) this.#typeBuffer = value;
    else if (name === 2 && text.startsWith('id', start)) this.#setId(value);
    else if (name === 5 && text.startsWith('retry', start)) this.#setRetry(value);
    else if (name === 0) this.#onComment?.(value);
  }

  /**
   * Ends the stream. Per the spec an unterminated final block is never
   * dispatched, so its buffered fields are dropped (the last event ID stays).
   * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
   */
  end(): void {
    this.#resetBlock();
    this.#idBuffer = this.lastEventId;
  }

  /**
   * "If the field value does not contain U+0000 NULL, then set the last event ID
   * buffer to the field value. Otherwise, ignore the field." An empty value resets it.
   */
  #setId(value: string): void {
    if (value.includes('\0')) return;
    this.#idBuffer = value;
    this.#blockHasId = true;
  }

  /**
   * "If the field value consists of only ASCII digits, then interpret the field
   * value as an integer in base ten, and set the event stream's reconnection
   * time to that integer. Otherwise, ignore the field." An empty value has no
   * digits to interpret, so it is ignored, as browsers do.
   */
  #setRetry(value: string): void {
    if (!/^[0-9]+$/.test(value)) return;
    const milliseconds = Number(value);
    this.retry = milliseconds;
    this.#blockRetry = milliseconds;
    this.#onRetry?.(milliseconds);
  }

  /** "Append the field value to the data buffer, then append a single U+000A LINE FEED." */
  #appendData(value: string, ascii: boolean): void {
    // Joining here instead of appending LF and trimming it at dispatch: same result, one concat less.
    this.#data = this.#dataLines++ === 0 ? value : `${this.#data}\n${value}`;
    if (this.#data.length > this.#maxUncountedUnits) this.#checkEventSize(value, ascii);
  }

  #checkEventSize(value: string, ascii: boolean): void {
    if (this.#dataBytes < 0) {
      this.#dataBytes = ascii && this.#dataLines === 1 ? value.length : utf8ByteLength(this.#data);
    } else {
      this.#dataBytes += (ascii ? value.length : utf8ByteLength(value)) + 1;
    }
    if (this.#dataBytes > this.#maxEventBytes) {
      const size = this.#dataBytes;
      this.#resetBlock();
      throw limitError('event-too-large', 'Event data', 'maxEventBytes', this.#maxEventBytes, size);
    }
  }

  /**
   * Blank line: commit the last event ID, then dispatch unless no `data` field
   * was seen; either way the data and event type buffers are reset.
   * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#dispatchMessage
   */
  #dispatch(): void {
    const id = this.#idBuffer;
    this.lastEventId = id;
    if (this.#dataLines === 0) {
      this.#resetBlock();
      return;
    }
    const hasId = this.#blockHasId;
    const retry = this.#blockRetry;
    const event: SseEvent =
      retry === undefined
        ? { event: this.#typeBuffer || 'message', data: this.#data, id }
        : { event: this.#typeBuffer || 'message', data: this.#data, id, retry };
    this.#resetBlock();
    this.#onEvent(event, hasId);
  }

  #resetBlock(): void {
    this.#typeBuffer = '';
    this.#data = '';
    this.#dataLines = 0;
    this.#dataBytes = -1;
    this.#blockRetry = undefined;
    this.#blockHasId = false;
  }
}
