import { Readable } from 'node:stream';
import type { LogEvent, LogStreamQuery } from '@browser-cloud/api-types';
import type { FastifyReply } from 'fastify';
import { notFound } from '@browser-cloud/request-checker';
import type { LogLine } from '../state/log-source.js';
import { type Item, logSourceKey, type SandboxState } from '../state/store.js';

/**
 * One log event on the wire. `serialize` writes only the document's properties and, like
 * `JSON.stringify`, escapes CR and LF: a message can never end the event early.
 */
export function formatLogEvent(id: string, line: LogLine, serialize: (data: LogEvent) => string): string {
  const data: LogEvent = { event: 'log', timestamp: line.timestamp, message: line.message };
  return `id: ${id}\nevent: log\ndata: ${serialize(data)}\n\n`;
}

/** The query parameters the stream reads (`LogStreamQuery`'s); start-up names any other the document gives it. */
export const HONOURED_QUERY: readonly string[] = ['source', 'path', 'supervisor_process', 'follow'];

/** Events are gathered into chunks of about this size before a write. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Streams the browser's log source that `query` names, after the line `Last-Event-ID` names, from a
 * cursor (the last line pushed). Without `follow` it ends after the lines that exist; with it, when
 * the client or the source goes.
 */
export function streamLogs(
  reply: FastifyReply,
  browser: Item,
  checkedQuery: object,
  { settings }: SandboxState,
  eventData: Record<string, unknown> | undefined,
): FastifyReply {
  const query = checkedQuery as LogStreamQuery;
  // A source the sandbox does not keep (a value the document added) has no log to find: 404.
  const name = { path: query.path, supervisor: query.supervisor_process }[query.source as string] ?? '';
  const source = browser.seed.logs?.get(logSourceKey(query.source, name));
  if (!source) throw notFound(`browser ${browser.id} has no log for source=${query.source} ${name}`.trim());
  const serialize = eventData === undefined ? JSON.stringify : reply.compileSerializationSchema(eventData);
  const lastEventId = reply.request.headers['last-event-id'];
  let cursor = source.resumePosition(Array.isArray(lastEventId) ? lastEventId[0] : lastEventId);
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    stream.push(null);
  };
  // Called again whenever the client has taken what was pushed: a slow client holds the cursor back.
  const pump = (): void => {
    while (!ended && cursor < source.lines.length) {
      let chunk = '';
      for (; cursor < source.lines.length && chunk.length < CHUNK_CHARS; cursor++) {
        chunk += formatLogEvent(source.eventId(cursor + 1), source.lines[cursor]!, serialize);
      }
      if (!stream.push(chunk)) return;
    }
    if (query.follow !== true || source.ended) end();
  };
  const onChange = (discarded: boolean) => (discarded ? end() : pump());
  // A comment line, ignored by every event-stream parser, keeps proxies from timing out.
  const keepAlive = setInterval(() => {
    if (!ended && stream.readableLength === 0) stream.push(': keep-alive\n\n');
  }, settings.keepAliveMs).unref();
  // Fastify sends the stream with the headers its hooks set, and destroys it when the client goes away.
  const stream = new Readable({
    read: pump,
    destroy(error, callback) {
      source.off('change', onChange);
      clearInterval(keepAlive);
      callback(error);
    },
  });
  source.on('change', onChange);
  // The reconnection-time hint, in a block of its own: it dispatches no event.
  stream.push(`retry: ${Math.floor(settings.retryMs)}\n\n`);
  return reply
    .headers({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    .send(stream);
}
