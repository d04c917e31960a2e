import type { LogEvent } from '@browser-cloud/api-types';
import type { LogLine } from '../state/log-source.js';

/** Writes an event's data as JSON: the serializer of the document's event data schema, or `JSON.stringify`. */
export type SerializeEventData = (data: LogEvent) => string;

/**
 * One log event on the wire. `serialize` (the document's LogEvent schema, by Fastify's
 * serializer, as the route gives it) writes only the properties the document has; like
 * `JSON.stringify` it escapes CR and LF, so the data is always one line and a message can never
 * end the event early.
 */
export function formatLogEvent(id: string, line: LogLine, serialize: SerializeEventData = JSON.stringify): string {
  const data: LogEvent = { event: 'log', timestamp: line.timestamp, message: line.message };
  return `id: ${id}\nevent: log\ndata: ${serialize(data)}\n\n`;
}

/** A comment line: ignored by every event-stream parser, it keeps proxies from timing out. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/** The reconnection-time hint, in a block of its own (it dispatches no event). */
export function formatRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.floor(ms))}\n\n`;
}
