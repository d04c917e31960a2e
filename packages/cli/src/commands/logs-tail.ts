import { DEFAULT_MAX_RETRIES, type LogStreamQueryBySource, type StreamStateChange } from '@browser-cloud/client';
import type { CliIo } from '../cli-io.js';
import { interruptedCode, withClient } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import { logOutput } from '../log-output.js';

/** The tail's own options; the stream's query comes from the document's options (`STREAM_OPTIONS`). */
export interface TailOptions {
  sinceId?: string;
  maxRetries?: number;
  json?: boolean;
}

/** Flags the tail names shorter than the document's parameters (`--process` for `supervisor_process`). */
export const TAIL_FLAGS: Readonly<Record<string, string>> = { supervisor_process: 'process' };

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
export function tailLogs(
  io: CliIo,
  browserId: string,
  query: Readonly<Record<string, unknown>>,
  options: TailOptions,
): Promise<number> {
  const json = options.json === true;
  const output = logOutput(io, { json });
  const follow = query['follow'] === true;
  const maxRetries = options.maxRetries ?? (follow ? FOLLOW_MAX_RETRIES : undefined);
  return withClient(io, { json, maxRetries }, async (client) => {
    // Only what was given: a missing or contradictory option is the client's ValidationError.
    const given = Object.entries(query).filter(([name, value]) => !(name === 'follow' && value === false));
    const sent = Object.fromEntries(given) as LogStreamQueryBySource;
    /** Where the tail stands: the last event printed, else where it started. */
    const position = () => stream.lastEventId || (options.sinceId ?? '');
    const stream = client.browsers.logs.stream(browserId, sent, {
      signal: io.interrupt,
      ...(options.sinceId === undefined ? {} : { lastEventId: options.sinceId }),
      ...(maxRetries === undefined ? {} : { maxRetries }),
      // The stream's own count: a reconnect is numbered as the client numbers it, and said to
      // have worked only once the stream delivers again.
      onStateChange: (change) => {
        if (change.state === 'streaming') output.connected();
        else if (change.state === 'waiting' && !io.interrupt.aborted) {
          const after = position() ? ` after event ${position()}` : '';
          const of = maxRetries ?? DEFAULT_MAX_RETRIES;
          output.status(`${why(change)}; reconnecting${after} (attempt ${change.attempt} of ${of})…`);
        }
      },
    });
    for await (const event of stream) await output.event(stream.lastEventId, event);
    if (!io.interrupt.aborted) return EXIT.ok;
    await output.stopped(position());
    return interruptedCode(io.interrupt);
  });
}

/** Why the last attempt failed, in a few words; never a message that could echo a header. */
function why(change: Extract<StreamStateChange, { state: 'waiting' }>): string {
  if (change.reason === 'status') return `the server answered ${change.status}`;
  if (change.reason === 'idle-timeout') return 'no data in time';
  if (change.reason === 'end') return 'the stream ended';
  return `connection failed: ${causeCode(change.error)}`;
}

/** `ECONNREFUSED` and the like, from a fetch failure's cause. */
function causeCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return error instanceof Error ? error.name : 'unknown error';
}
