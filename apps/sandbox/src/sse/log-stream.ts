import { PassThrough } from 'node:stream';
import type { LogEvent, LogStreamQuery } from '@browser-cloud/api-types';
import type { FastifyReply } from 'fastify';
import { notFound } from '../http/api-error.js';
import type { LogLine } from '../state/log-source.js';
import { type Browser, logSourceKey, type SandboxState } from '../state/store.js';

/**
 * One log event on the wire. `serialize` writes only the document's properties and, like
 * `JSON.stringify`, escapes CR and LF: a message can never end the event early.
 */
export function formatLogEvent(id: string, line: LogLine, serialize: (data: LogEvent) => string): string {
  const data: LogEvent = { event: 'log', timestamp: line.timestamp, message: line.message };
  return `id: ${id}\nevent: log\ndata: ${serialize(data)}\n\n`;
}

/** Events are gathered into chunks of about this size before a write. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Streams the browser's log source that `query` names, after the line `Last-Event-ID` names. A
 * cursor (the last line written) sends lines appended while the socket drains once, in order.
 * Without `follow` it ends after the lines that exist; with it, when the client or source goes.
 */
export function streamLogs(
  reply: FastifyReply,
  browser: Browser,
  checkedQuery: object,
  { settings }: SandboxState,
  eventData: Record<string, unknown> | undefined,
): FastifyReply {
  const query = checkedQuery as LogStreamQuery;
  // A source the sandbox does not keep (a value the document added) has no log to find: 404.
  const name = { path: query.path, supervisor: query.supervisor_process }[query.source as string] ?? '';
  const source = browser.logs.get(logSourceKey(query.source, name));
  if (!source) throw notFound(`browser ${browser.id} has no log for source=${query.source} ${name}`.trim());
  const serialize = eventData === undefined ? JSON.stringify : reply.compileSerializationSchema(eventData);
  const lastEventId = reply.request.headers['last-event-id'];
  let cursor = source.resumePosition(Array.isArray(lastEventId) ? lastEventId[0] : lastEventId);
  let draining = false;
  let finished = false;
  // Fastify sends the stream with the headers its hooks set, and destroys it when the client goes away.
  const stream = new PassThrough();

  const finish = (): void => {
    if (finished) return;
    finished = true;
    source.off('change', onChange);
    clearInterval(keepAlive);
    if (!stream.destroyed) stream.end();
  };

  const pump = (): void => {
    if (finished || draining) return;
    while (cursor < source.lines.length) {
      let chunk = '';
      for (; cursor < source.lines.length && chunk.length < CHUNK_CHARS; cursor++) {
        chunk += formatLogEvent(source.eventId(cursor + 1), source.lines[cursor]!, serialize);
      }
      if (!stream.write(chunk)) {
        draining = true;
        stream.once('drain', () => {
          draining = false;
          pump();
        });
        return;
      }
    }
    if (query.follow !== true || source.ended) finish();
  };

  const onChange = (ended: boolean) => (ended ? finish() : pump());
  source.on('change', onChange);
  // A comment line, ignored by every event-stream parser, keeps proxies from timing out.
  const keepAlive = setInterval(() => {
    if (!finished && !draining) stream.write(': keep-alive\n\n');
  }, settings.keepAliveMs).unref();
  stream.on('close', finish);
  // The reconnection-time hint, in a block of its own: it dispatches no event.
  stream.write(`retry: ${Math.floor(settings.retryMs)}\n\n`);
  pump();
  return reply
    .headers({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    .send(stream);
}
