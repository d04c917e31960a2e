import type { ServerResponse } from 'node:http';
import type { LogSource } from '../state/log-source.js';
import { KEEP_ALIVE, formatLogEvent, formatRetry, type SerializeEventData } from './format-event.js';

export interface LogStreamOptions {
  /** The position of the last event the client has (see `LogSource.resumePosition`); the stream starts after it. */
  after: number;
  /** Keep the response open and send lines as they are appended. */
  follow: boolean;
  keepAliveMs: number;
  retryMs: number;
  /** Extra response headers (the request id). */
  headers: Record<string, string>;
  /** Writes each event's data: the serializer of the document's event data schema. */
  serialize?: SerializeEventData | undefined;
}

/** Events are gathered into chunks of about this size before a write. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Streams a log source to a raw response as server-sent events. The stream keeps a cursor (the
 * id of the last event written), so that lines appended while it waits for the socket to drain
 * are sent once, in order: nothing is lost or repeated. Without `follow` it ends after the lines
 * that exist; with `follow` it ends when the client goes away or the source is discarded.
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
    unsubscribe();
    clearInterval(keepAlive);
    if (!res.writableEnded) res.end();
  };

  const pump = (): void => {
    if (finished || draining) return;
    while (cursor < source.length) {
      let chunk = '';
      while (cursor < source.length && chunk.length < CHUNK_CHARS) {
        const next = cursor + 1;
        const line = source.line(next);
        if (line === undefined) break;
        chunk += formatLogEvent(source.eventId(next), line, options.serialize);
        cursor = next;
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

  const unsubscribe = source.subscribe((ended) => (ended ? finish() : pump()));
  const keepAlive = setInterval(() => {
    if (!finished && !draining) res.write(KEEP_ALIVE);
  }, options.keepAliveMs);
  keepAlive.unref();
  res.on('close', finish);
  pump();
}
