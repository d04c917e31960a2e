import { EventParser, type EventParserOptions } from './event-parser.js';
import { LineDecoder, type LineDecoderOptions } from './line-decoder.js';

// This module is also the `@browser-cloud/sse/parser` entry: the layers under the readers.
export * from './line-decoder.js';
export * from './event-parser.js';
export * from './utf8-byte-length.js';

/** The size limits, counted in UTF-8 bytes of the decoded text. */
export type ParserLimits = LineDecoderOptions & Pick<EventParserOptions, 'maxEventBytes'>;
export type ParserOptions = EventParserOptions & ParserLimits;

/** Bytes in, events out, synchronously: the I/O-free core under every reader of this package. */
export interface Parser {
  /**
   * Parses the next chunk; callbacks run before it returns. Throws `SseError` (`line-too-long`,
   * `event-too-large`), after which it rethrows that error on every call.
   */
  feed(chunk: Uint8Array): void;
  /** Ends the stream, discarding an unterminated last line and block. A no-op after an error. */
  end(): void;
  /** See {@link EventParser}'s fields. */
  readonly lastEventId: string;
  readonly retry: number | undefined;
}

/** A {@link LineDecoder} feeding an {@link EventParser}: what compares with `eventsource-parser` plus a `TextDecoder`. */
export function createParser(options: ParserOptions): Parser {
  const events = new EventParser(options);
  const lines = new LineDecoder(events, options);
  let failure: { error: unknown } | undefined;
  return {
    feed(chunk) {
      if (failure) throw failure.error;
      try {
        lines.push(chunk);
      } catch (error) {
        failure = { error };
        throw error;
      }
    },
    end() {
      if (failure) return;
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
