// The readers, the typed JSON layer and the errors; the layers under them are at `/parser`, the retry policy at `/retry-policy`.
export { SseError, isSseError, type SseErrorDetails, type SseErrorType } from './errors.js';
export type { SseEvent } from './event-parser.js';
export type { ParserLimits } from './parser.js';
export { readEventStream, type EventStream, type ReadEventStreamOptions } from './read-event-stream.js';
export {
  connectEventStream,
  type ConnectEventStreamOptions,
  type EventStreamConnection,
  type EventStreamFetch,
  type HeadersContext,
  type OpenInfo,
  type RetryInfo,
  type RetryReason,
  type StreamStateChange,
} from './connect-event-stream.js';
export {
  createJsonEventDecoder,
  parseJsonEvents,
  type ErrorListValidator,
  type JsonEvent,
  type JsonEventOptions,
  type JsonEventStream,
  type TypeGuard,
  type Validator,
} from './json-events.js';
export { readBoundedBody, type BoundedBody } from './body-excerpt.js';
