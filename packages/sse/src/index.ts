// The readers, the typed JSON layer and the errors, every export of their modules; the layers under
// them are at `/parser`, the retry policy at `/retry-policy`.
export * from './errors.js';
export type { SseEvent } from './event-parser.js';
export type { ParserLimits } from './parser.js';
export * from './read-event-stream.js';
export * from './connect-event-stream.js';
export * from './json-events.js';
export * from './body-excerpt.js';
