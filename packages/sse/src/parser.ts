import { LineDecoder } from './line-decoder.js';
import { EventParser } from './event-parser.js';
import type { EventParserOptions } from './event-parser.js';
import type { ParserLimits } from './types.js';

// This module is also the `@browser-cloud/sse/parser` entry: the layers under the readers.
export { LineDecoder } from './line-decoder.js';
export type { LineDecoderOptions, LineSink } from './line-decoder.js';
export { EventParser } from './event-parser.js';
export type { EventParserOptions } from './event-parser.js';
export { DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_LINE_BYTES } from './types.js';
export type { ParserLimits, SseEvent } from './types.js';
export { utf8ByteLength } from './utf8-byte-length.js';

export interface ParserOptions extends EventParserOptions, ParserLimits {}

/** Bytes in, events out, synchronously: the I/O-free core under every reader of this package. */
export interface Parser {
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
export function createParser(options: ParserOptions): Parser {
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
