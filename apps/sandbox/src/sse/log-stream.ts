import type { ServerResponse } from 'node:http';
import type { LogEvent } from '@browser-cloud/api-types';
import type { LogLine, LogSource } from '../state/log-source.js';

/** Writes an event's data as JSON: the serializer of the document's event data schema, or `JSON.stringify`. */
export type SerializeEventData = (data: LogEvent) => string;

/**
 * One log event on the wire. `serialize` writes only the properties the document has; like
 * `JSON.stringify` it escapes CR and LF, so the data is always one line and a message can never
 * end the event early.
 */
export function formatLogEvent(id: string, line: LogLine, serialize: SerializeEventData = JSON.stringify): string {
  const data: LogEvent = { event: 'log', timestamp: line.timestamp, message: line.message };
  return `id: ${id}\nevent: log\ndata: ${serialize(data)}\n\n`;
}

/** The reconnection-time hint, in a block of its own (it dispatches no event). */
export function formatRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.floor(ms))}\n\n`;
}

export interface LogStreamOptions {
  /** The position of the last event the client has (see `LogSource.resumePosition`); the stream starts after it. */
  after: number;
  /** Keep the response open and send lines as they are appended. */
  follow: boolean;
  keepAliveMs: number;
  retryMs: number;
  /** Extra response headers (the request id, CORS). */
  headers: Record<string, string>;
  serialize?: SerializeEventData | undefined;
}

/** Events are gathered into chunks of about this size before a write. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Streams a log source to a raw response as server-sent events. The stream keeps a cursor (the
 * position of the last event written), so that lines appended while it waits for the socket to
 * drain are sent once, in order: nothing is lost or repeated. Without `follow` it ends after the
 * lines that exist; with `follow` it ends when the client goes away or the source is discarded.
 */
export function streamLogSource(res: ServerResponse, source: LogSource, options: LogStreamOptions): void {
  let cursor = Math.min(options.after, Number.MAX_SAFE_INTEGER);
  let draining = false;
  let finished = false;

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...options.headers,
  });
  res.write(formatRetry(options.retryMs));

  const finish = (): void => {
    if (finished) return;
    finished = true;
    source.off('change', onChange);
    clearInterval(keepAlive);
    if (!res.writableEnded) res.end();
  };

  const pump = (): void => {
    if (finished || draining) return;
    while (cursor < source.lines.length) {
      let chunk = '';
      for (; cursor < source.lines.length && chunk.length < CHUNK_CHARS; cursor++) {
        chunk += formatLogEvent(source.eventId(cursor + 1), source.lines[cursor]!, options.serialize);
      }
      if (!res.write(chunk)) {
        draining = true;
        res.once('drain', () => {
          draining = false;
          pump();
        });
        return;
      }
    }
    if (!options.follow || source.ended) finish();
  };

  const onChange = (ended: boolean) => (ended ? finish() : pump());
  source.on('change', onChange);
  // A comment line, ignored by every event-stream parser, keeps proxies from timing out.
  const keepAlive = setInterval(() => {
    if (!finished && !draining) res.write(': keep-alive\n\n');
  }, options.keepAliveMs).unref();
  res.on('close', finish);
  pump();
}
