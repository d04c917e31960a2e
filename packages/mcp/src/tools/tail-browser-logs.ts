import type { LogStreamQueryBySource } from '@browser-cloud/client';
import { FOLLOW_QUIET_MS, TOOL_DEFINITIONS } from '../generated/tool-definitions.js';
import type { McpTool } from './mcp-tool.js';

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

export const tailBrowserLogs: McpTool = {
  definition: TOOL_DEFINITIONS.tail_browser_logs,
  annotations: {
    title: TOOL_DEFINITIONS.tail_browser_logs.title,
    readOnlyHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  conflictHint: '',
  async call(client, args, signal) {
    // The tool's own arguments have been checked, and defaulted, against their generated schema.
    const { max_events, max_bytes, wait_ms, cursor } = args.tool as {
      max_events: number;
      max_bytes: number;
      wait_ms: number;
      cursor?: string;
    };
    const quietMs = args.query['follow'] === true ? FOLLOW_QUIET_MS : undefined;
    return {
      ...(await tail(client, args, {
        maxEvents: max_events,
        maxBytes: max_bytes,
        waitMs: wait_ms,
        quietMs,
        cursor,
        signal,
      })),
    };
  },
};

interface TailBounds {
  maxEvents: number;
  maxBytes: number;
  waitMs: number;
  /**
   * With `follow`: return this long after the last event that arrived, rather than wait all of
   * `waitMs` (a followed log has no end, and a model waits for the whole call).
   */
  quietMs: number | undefined;
  cursor: string | undefined;
  signal: AbortSignal;
}

type Client = Parameters<McpTool['call']>[0];

/**
 * Reads up to `maxEvents` events and `maxBytes` bytes of them, for at most `waitMs`, from the
 * event after `cursor`. The cursor returned is the stream's last event ID, never the ID of an
 * event read and left out, so the next call continues exactly there.
 */
async function tail(client: Client, args: Parameters<McpTool['call']>[1], bounds: TailBounds): Promise<TailResult> {
  const stopper = new AbortController();
  // First, as it may throw (a ValidationError): no timer or listener is left behind then.
  const stream = client.browsers.logs.stream(args.path['id'] as string, args.query as LogStreamQueryBySource, {
    signal: stopper.signal,
    lastEventId: bounds.cursor ?? '',
  });
  const timer = setTimeout(() => stopper.abort(), bounds.waitMs);
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let quieted = false;
  const cancel = () => stopper.abort();
  bounds.signal.addEventListener('abort', cancel, { once: true });
  const events: TailedEvent[] = [];
  let cursor = bounds.cursor ?? '';
  /** An event was read and not returned (over `maxBytes`): the cursor stays on the last returned. */
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
      if (bytes + size > bounds.maxBytes) {
        stopped = 'max_bytes';
        // An event alone over the budget would block every later call: return it cut to fit.
        leftOut = events.length > 0;
        if (leftOut) break;
        event = truncated(event, bounds.maxBytes - bytes - 1);
        size = jsonBytes(event) + 1;
      }
      events.push(event);
      bytes += size;
      cursor = event.id;
      if (stopped === 'max_bytes') break;
      if (events.length >= bounds.maxEvents) {
        stopped = 'max_events';
        break;
      }
      if (bounds.quietMs !== undefined) {
        clearTimeout(quiet);
        quiet = setTimeout(() => {
          quieted = true;
          stopper.abort();
        }, bounds.quietMs);
      }
    }
  } finally {
    clearTimeout(timer);
    clearTimeout(quiet);
    bounds.signal.removeEventListener('abort', cancel);
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
