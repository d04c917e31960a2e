import { LineDecoder } from './decode-lines.js';
import { EventParser } from './parse-events.js';
import type { EventParserOptions } from './parse-events.js';
import type { ParserLimits } from './types.js';

export interface EventStreamParserOptions extends EventParserOptions, ParserLimits {}

/** Bytes in, events out, synchronously: the I/O-free core under every reader of this package. */
export interface EventStreamParser {
  /**
   * Parses the next chunk; callbacks run before it returns. Throws `SseError`
   * (`line-too-long`, `event-too-large`), after which the parser is finished and
   * rethrows that error on every call.
   */
  feed(chunk: Uint8Array): void;
  /** Ends the stream, discarding an unterminated last line and block. A no-op after an error. */
  end(): void;
  /** The last event ID string (see {@link EventParser.lastEventId}). */
  readonly lastEventId: string;
  /** Last valid `retry` value seen, in milliseconds. */
  readonly retry: number | undefined;
}

/**
 * Creates the pure bytes-to-events parser: {@link LineDecoder} feeding an
 * {@link EventParser}. This is the layer to compare with `eventsource-parser`'s
 * `createParser` plus a `TextDecoder`.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
export function createEventStreamParser(options: EventStreamParserOptions): EventStreamParser {
  const events = new EventParser(options);
  const lines = new LineDecoder(events, options);
  let failure: unknown;
  let failed = false;
  return {
    feed(chunk) {
      if (failed) throw failure;
      try {
        lines.push(chunk);
      } catch (error) {
        failed = true;
        failure = error;
        throw error;
      }
    },
    end() {
      if (failed) return;
      lines.end();
      events.end();
    },
    get lastEventId() {
      return events.lastEventId;
    },
    get retry() {
      return events.retry;
    },
  };
}
