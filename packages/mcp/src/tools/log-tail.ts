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
 * The log tail: reads the event stream from the event after `cursor` (sent as `Last-Event-ID`),
 * within the tool's own bounds (`max_events`, `max_bytes`, `wait_ms`). The cursor returned is
 * never the ID of an event read and left out, so the next call continues exactly there.
 */
export async function tailLog(
  client: BrowserCloudClient,
  definition: ToolDefinition,
  args: SortedArguments,
  signal: AbortSignal,
): Promise<TailResult> {
  const bounds = args.tool as { max_events: number; max_bytes: number; wait_ms: number; cursor?: string };
  const stopper = new AbortController();
  const stop = (why: TailStop) => () => stopper.abort(why);
  // First, as it may throw (a ValidationError): no timer or listener is left behind then.
  const stream = callOperation(client, definition.call, args, {
    signal: stopper.signal,
    lastEventId: bounds.cursor ?? '',
  }) as LogStream;
  const timer = setTimeout(stop('time_limit'), bounds.wait_ms);
  // The request's own signal, which goes with it.
  signal.addEventListener('abort', stop('time_limit'), { once: true });
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const events: TailedEvent[] = [];
  let bytes = 2; // the array's brackets
  let stopped: TailStop = 'end_of_log';
  /** An event was read and not returned (over `max_bytes`): the cursor stays on the last returned. */
  let leftOut = false;
  try {
    for (let next = await stream.next(); next.done !== true; next = await stream.next()) {
      const event: TailedEvent = {
        id: stream.lastEventId,
        timestamp: next.value.timestamp,
        message: next.value.message,
      };
      const size = jsonBytes(event) + 1;
      if (bytes + size > bounds.max_bytes) {
        stopped = 'max_bytes';
        // An event alone over the budget would block every later call: return it cut to fit.
        if (events.length === 0) events.push(truncated(event, bounds.max_bytes - bytes - 1));
        else leftOut = true;
        break;
      }
      events.push(event);
      bytes += size;
      if (events.length >= bounds.max_events) {
        stopped = 'max_events';
        break;
      }
      // With `follow`, return this long after the last event that arrived rather than wait all
      // of `wait_ms`: a followed log has no end, and a model waits for the whole call.
      if (args.query['follow'] === true) {
        clearTimeout(quiet);
        quiet = setTimeout(stop('quiet'), FOLLOW_QUIET_MS);
      }
    }
    // The stream ended (the loop ran out) because it was stopped.
    if (stopped === 'end_of_log' && stopper.signal.aborted) stopped = stopper.signal.reason as TailStop;
  } finally {
    clearTimeout(timer);
    clearTimeout(quiet);
    await stream.close();
  }
  // Else where the stream stands, which an ID without a line (a heartbeat's) moves on too: a call
  // that returns no line says where to continue, not "" (the start of the log).
  const cursor = (!leftOut && stream.lastEventId) || (events.at(-1)?.id ?? bounds.cursor ?? '');
  return { events, cursor, stopped };
}

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

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
