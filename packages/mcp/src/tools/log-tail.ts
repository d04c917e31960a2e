import { type BrowserCloudClient, callOperation, type LogStream } from '@browser-cloud/client';
import { FOLLOW_QUIET_MS } from '../generated/tool-definitions.js';
import type { SortedArguments } from '../tool-arguments.js';
import type { ToolDefinition } from '../tool-definition.js';

/** One returned log event: its SSE ID, and the LogEvent's timestamp and message. */
export interface TailedEvent {
  id: string;
  timestamp: string;
  message: string;
  truncated?: true;
}

export type TailStop = 'max_events' | 'max_bytes' | 'end_of_log' | 'quiet' | 'time_limit';

export interface TailResult {
  events: TailedEvent[];
  /** SSE last event ID after the last returned event: where the next call continues. */
  cursor: string;
  stopped: TailStop;
}

/**
 * The log tail: reads the event stream of `definition`'s operation from the event after `cursor`
 * (sent as `Last-Event-ID`), up to `max_events` events and `max_bytes` bytes of them, for at most
 * `wait_ms`. Those are the tool's own arguments, checked and defaulted against their generated
 * schema. The cursor returned is the stream's last event ID, never the ID of an event read and
 * left out, so the next call continues exactly there.
 */
export async function tailLog(
  client: BrowserCloudClient,
  definition: ToolDefinition,
  args: SortedArguments,
  signal: AbortSignal,
): Promise<TailResult> {
  const bounds = args.tool as { max_events: number; max_bytes: number; wait_ms: number; cursor?: string };
  // With `follow`: return this long after the last event that arrived, rather than wait all of
  // `wait_ms` (a followed log has no end, and a model waits for the whole call).
  const quietMs = args.query['follow'] === true ? FOLLOW_QUIET_MS : undefined;
  const stopper = new AbortController();
  // First, as it may throw (a ValidationError): no timer or listener is left behind then.
  const stream = callOperation(client, definition.call, args, {
    signal: stopper.signal,
    lastEventId: bounds.cursor ?? '',
  }) as LogStream;
  const timer = setTimeout(() => stopper.abort(), bounds.wait_ms);
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let quieted = false;
  const cancel = () => stopper.abort();
  signal.addEventListener('abort', cancel, { once: true });
  const events: TailedEvent[] = [];
  let cursor = bounds.cursor ?? '';
  /** An event was read and not returned (over `max_bytes`): the cursor stays on the last returned. */
  let leftOut = false;
  let bytes = 2; // the array's brackets
  let stopped: TailStop = 'end_of_log';
  try {
    for (;;) {
      const next = await stream.next();
      if (next.done === true) {
        if (stopper.signal.aborted) stopped = quieted ? 'quiet' : 'time_limit';
        break;
      }
      let event: TailedEvent = { id: stream.lastEventId, timestamp: next.value.timestamp, message: next.value.message };
      let size = jsonBytes(event) + 1;
      if (bytes + size > bounds.max_bytes) {
        stopped = 'max_bytes';
        // An event alone over the budget would block every later call: return it cut to fit.
        leftOut = events.length > 0;
        if (leftOut) break;
        event = truncated(event, bounds.max_bytes - bytes - 1);
        size = jsonBytes(event) + 1;
      }
      events.push(event);
      bytes += size;
      cursor = event.id;
      if (stopped === 'max_bytes') break;
      if (events.length >= bounds.max_events) {
        stopped = 'max_events';
        break;
      }
      if (quietMs !== undefined) {
        clearTimeout(quiet);
        quiet = setTimeout(() => {
          quieted = true;
          stopper.abort();
        }, quietMs);
      }
    }
  } finally {
    clearTimeout(timer);
    clearTimeout(quiet);
    signal.removeEventListener('abort', cancel);
    await stream.close();
  }
  // Else where the stream stands, which an ID without a line (a heartbeat's) moves on too: a call
  // that returns no line says where to continue, not "" (the start of the log).
  if (!leftOut && stream.lastEventId !== '') cursor = stream.lastEventId;
  return { events, cursor, stopped };
}

const encoder = new TextEncoder();

function jsonBytes(value: unknown): number {
  return encoder.encode(JSON.stringify(value)).byteLength;
}

/** The event with its message cut so that its JSON takes at most `budget` bytes. */
function truncated(event: TailedEvent, budget: number): TailedEvent {
  const bare: TailedEvent = { ...event, message: '', truncated: true };
  let room = budget - jsonBytes(bare);
  for (;;) {
    // encodeInto writes whole characters only: the cut never splits one, nor a surrogate pair.
    const { read } = encoder.encodeInto(event.message, new Uint8Array(Math.max(0, room)));
    const candidate: TailedEvent = { ...bare, message: event.message.slice(0, read) };
    // JSON escapes (quotes, control characters) take more bytes than the characters they escape.
    const excess = jsonBytes(candidate) - budget;
    if (excess <= 0 || read === 0) return candidate;
    room -= excess;
  }
}
