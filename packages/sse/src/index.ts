// What users of the package need: the two readers, the typed JSON layer and the error type.
// The parsing layers are at `@browser-cloud/sse/parser`, the retry policy at
// `@browser-cloud/sse/retry-policy`.
export { SseError, isSseError } from './errors.js';
export type { SseErrorDetails, SseErrorType } from './errors.js';
export type { SseEvent } from './event-parser.js';
export type { ParserLimits } from './parser.js';
export { readEventStream } from './read-event-stream.js';
export type { EventStream, ReadEventStreamOptions } from './read-event-stream.js';
export { connectEventStream } from './connect-event-stream.js';
export type {
  ConnectEventStreamOptions,
  EventStreamConnection,
  EventStreamFetch,
  HeadersContext,
  OpenInfo,
  RetryInfo,
  RetryReason,
  StreamStateChange,
} from './connect-event-stream.js';
export { createJsonEventDecoder, parseJsonEvents } from './json-events.js';
export type {
  ErrorListValidator,
  JsonEvent,
  JsonEventOptions,
  JsonEventStream,
  TypeGuard,
  Validator,
} from './json-events.js';
// The bounded read of a refused answer's body, which the client's errors are built from too.
export { readBoundedBody } from './body-excerpt.js';
export type { BoundedBody } from './body-excerpt.js';
