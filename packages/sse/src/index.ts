export { SseError, isSseError } from './errors.js';
export type { SseErrorDetails, SseErrorType } from './errors.js';
export { DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_LINE_BYTES } from './types.js';
export type { ParserLimits, SseEvent } from './types.js';
export { LineDecoder } from './decode-lines.js';
export type { LineDecoderOptions, LineSink } from './decode-lines.js';
export { EventParser } from './parse-events.js';
export type { EventParserOptions } from './parse-events.js';
export { createEventStreamParser } from './event-stream-parser.js';
export type { EventStreamParser, EventStreamParserOptions } from './event-stream-parser.js';
export { parseEventStream } from './parse-event-stream.js';
export type { EventStream, ParseEventStreamOptions } from './parse-event-stream.js';
export { createJsonEventDecoder, parseJsonEvents } from './json-events.js';
export type {
  ErrorListValidator,
  JsonEvent,
  JsonEventOptions,
  JsonEventStream,
  TypeGuard,
  Validator,
} from './json-events.js';
export { connectEventStream } from './connect-event-stream.js';
export type {
  ConnectEventStreamOptions,
  EventStreamConnection,
  FetchLike,
  HeadersContext,
  OpenInfo,
  RetryInfo,
  RetryReason,
} from './connect-event-stream.js';
export { backoffDelay } from './backoff.js';
export type { BackoffOptions } from './backoff.js';
export { parseRetryAfter } from './retry-after.js';
export { classifyResponse, isEventStreamType } from './response-policy.js';
export type { ResponseVerdict } from './response-policy.js';
export { utf8ByteLength } from './utf8-byte-length.js';
export { readBoundedBody } from './body-excerpt.js';
export type { BoundedBody } from './body-excerpt.js';
