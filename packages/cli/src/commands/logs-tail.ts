import type { FetchLike, LogStreamQueryBySource } from '@browser-cloud/client';
import type { CliIo } from '../cli-io.js';
import { interruptedCode, withClient } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import { type LogOutput, logOutput } from '../log-output.js';

export interface TailOptions {
  source?: string;
  path?: string;
  process?: string;
  follow?: boolean;
  sinceId?: string;
  maxRetries?: number;
  json?: boolean;
}

/**
 * With `--follow` a restart of the service must not end the tail: 10 consecutive failed
 * reconnects (backoff from 0.5 s doubling to 8 s, or the server's `retry:`) ride out about a minute.
 */
export const FOLLOW_MAX_RETRIES = 10;

/**
 * `browser-cloud logs tail <browser-id>`: prints events as they come; the client reconnects with
 * `Last-Event-ID`, so a dropped connection or a restarted server neither loses nor repeats one.
 * Ctrl-C ends it cleanly and prints the last event ID, for `--since-id`.
 */
export function tailLogs(io: CliIo, browserId: string, options: TailOptions): Promise<number> {
  const json = options.json === true;
  const output = logOutput(io, { json });
  const follow = options.follow === true;
  const maxRetries = options.maxRetries ?? (follow ? FOLLOW_MAX_RETRIES : undefined);
  return withClient(io, { json, fetch: watchConnections(io, output), maxRetries }, async (client) => {
    // Only what was given: a missing or contradictory option is the client's ValidationError.
    const query = {
      ...(options.source === undefined ? {} : { source: options.source }),
      ...(options.path === undefined ? {} : { path: options.path }),
      ...(options.process === undefined ? {} : { supervisor_process: options.process }),
      ...(follow ? { follow } : {}),
    } as LogStreamQueryBySource;
    const stream = client.browsers.logs.stream(browserId, query, {
      signal: io.interrupt,
      ...(options.sinceId === undefined ? {} : { lastEventId: options.sinceId }),
      ...(maxRetries === undefined ? {} : { maxRetries }),
    });
    for await (const event of stream) await output.event(stream.lastEventId, event);
    if (!io.interrupt.aborted) return EXIT.ok;
    await output.stopped(stream.lastEventId || (options.sinceId ?? ''));
    return interruptedCode(io.interrupt);
  });
}

/**
 * The client's fetch, watched: every request after the first is a reconnect (the client makes
 * one only to resume the stream), shown as a status until a response opens the stream again.
 */
function watchConnections(io: CliIo, output: LogOutput): FetchLike {
  let requests = 0;
  let failures = 0;
  return async (request) => {
    requests++;
    if (requests > 1) {
      const after = request.headers.get('last-event-id');
      output.status(`reconnecting${after ? ` after event ${after}` : ''} (attempt ${failures + 1})…`);
    }
    try {
      const response = await (io.fetch ?? globalThis.fetch)(request);
      if (response.ok) {
        failures = 0;
        output.connected();
      } else {
        failures++;
      }
      return response;
    } catch (error) {
      failures++;
      if (!io.interrupt.aborted) output.status(`connection failed: ${causeCode(error)}; retrying…`);
      throw error;
    }
  };
}

/** `ECONNREFUSED` and the like, from a fetch failure's cause; never a message that could echo a header. */
function causeCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return error instanceof Error ? error.name : 'unknown error';
}
