import { SseError } from './errors.js';
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
  /** Called for every event; `hasId`: its own block had an `id` field (the reconnecting reader's replay check). */
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

/** Lines to events, the WHATWG "Interpreting an event stream", pure and synchronous: a {@link LineDecoder} feeds it. */
export class EventParser implements LineSink {
  /** The "last event ID string": the ID buffer as of the last dispatch, even of a block without data. */
  lastEventId: string;
  /** Last valid `retry` value seen, in milliseconds. */
  retry: number | undefined = undefined;

  readonly #options: EventParserOptions;
  readonly #maxEventBytes: number;
  readonly #maxUncountedUnits: number;
  /** The "last event ID buffer", deliberately not reset on dispatch. */
  #idBuffer: string;
  #typeBuffer = '';
  #data = '';
  /** Number of `data` fields in the current block; the data buffer is "empty" iff 0. */
  #dataLines = 0;
  /** Exact UTF-8 size of `data`, or -1 while it is too short to need counting. */
  #dataBytes = -1;
  /** Every `data` value of the block so far was known to be ASCII: its size is its length. */
  #dataAscii = true;
  #blockRetry: number | undefined = undefined;
  #blockHasId = false;

  constructor(options: EventParserOptions) {
    this.#options = options;
    this.lastEventId = options.lastEventId ?? '';
    this.#idBuffer = this.lastEventId;
    this.#maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.#maxUncountedUnits = Math.floor(this.#maxEventBytes / 3);
  }

  /**
   * Processes one line, `text.slice(start, end)`; field names are compared literally, unknown ones ignored.
   * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
   */
  line(text: string, start: number, end: number, ascii = false): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    // The first letter says which field name to try, matched in place (no substring per line); a
    // line that starts with another letter has a name that is none of them, and is ignored.
    switch (text.charCodeAt(start)) {
      case COLON:
        this.#options.onComment?.(valueAfter(text, start, end));
        return;
      case 100: // 'd'
        if (isField(text, start, end, 'data')) this.#appendData(valueAfter(text, start + 4, end), ascii);
        return;
      case 101: // 'e'
        if (isField(text, start, end, 'event')) this.#typeBuffer = valueAfter(text, start + 5, end);
        return;
      case 105: // 'i'
        if (isField(text, start, end, 'id')) this.#setId(valueAfter(text, start + 2, end));
        return;
      case 114: // 'r'
        if (isField(text, start, end, 'retry')) this.#setRetry(valueAfter(text, start + 5, end));
    }
  }

  /** Ends the stream: an unterminated final block is never dispatched, so its fields are dropped. */
  end(): void {
    this.#resetBlock();
    this.#idBuffer = this.lastEventId;
  }

  /** A value with U+0000 is ignored; an empty one resets the ID. */
  #setId(value: string): void {
    if (value.includes('\0')) return;
    this.#idBuffer = value;
    this.#blockHasId = true;
  }

  /** Only ASCII digits are a reconnection time; anything else is ignored (an empty value too, as browsers do). */
  #setRetry(value: string): void {
    if (!/^[0-9]+$/.test(value)) return;
    const milliseconds = Number(value);
    this.retry = milliseconds;
    this.#blockRetry = milliseconds;
    this.#options.onRetry?.(milliseconds);
  }

  /** "Append the field value to the data buffer, then append a single U+000A LINE FEED." */
  #appendData(value: string, ascii: boolean): void {
    // Joining here instead of appending LF and trimming it at dispatch: same result, one concat less.
    this.#data = this.#dataLines++ === 0 ? value : `${this.#data}\n${value}`;
    this.#dataAscii &&= ascii;
    // Counted only once it could be over the limit: a UTF-16 unit is at most 3 bytes.
    if (this.#data.length <= this.#maxUncountedUnits) return;
    if (this.#dataBytes < 0) {
      this.#dataBytes = this.#dataAscii ? this.#data.length : utf8ByteLength(this.#data);
    } else {
      this.#dataBytes += (ascii ? value.length : utf8ByteLength(value)) + 1;
    }
    const limit = this.#maxEventBytes;
    if (this.#dataBytes > limit) {
      const size = this.#dataBytes;
      this.#resetBlock();
      throw new SseError('event-too-large', `Event data exceeds maxEventBytes (${limit} bytes)`, { limit, size });
    }
  }

  /** Blank line: commit the last event ID, then dispatch unless the block had no `data` field. */
  #dispatch(): void {
    const id = this.#idBuffer;
    this.lastEventId = id;
    if (this.#dataLines === 0) {
      this.#resetBlock();
      return;
    }
    const hasId = this.#blockHasId;
    const event: SseEvent = { event: this.#typeBuffer || 'message', data: this.#data, id };
    if (this.#blockRetry !== undefined) event.retry = this.#blockRetry;
    this.#resetBlock();
    this.#options.onEvent(event, hasId);
  }

  #resetBlock(): void {
    this.#typeBuffer = '';
    this.#data = '';
    this.#dataLines = 0;
    this.#dataBytes = -1;
    this.#dataAscii = true;
    this.#blockRetry = undefined;
    this.#blockHasId = false;
  }
}

/**
 * The line `text.slice(start, end)` has the field name `name`: its letters after the first (the
 * caller matched that), then a colon or the end of the line. Field names are case-sensitive.
 */
function isField(text: string, start: number, end: number, name: string): boolean {
  const nameEnd = start + name.length;
  if (nameEnd > end || (nameEnd < end && text.charCodeAt(nameEnd) !== COLON)) return false;
  for (let i = 1; i < name.length; i++) if (text.charCodeAt(start + i) !== name.charCodeAt(i)) return false;
  return true;
}

/** The value after the colon at `colon`, without one leading space; `''` when the name ends the line. */
function valueAfter(text: string, colon: number, end: number): string {
  // Slicing from past `end` gives ''.
  return text.slice(text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1, end);
}
