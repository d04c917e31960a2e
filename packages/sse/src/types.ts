/**
 * One dispatched event, as the WHATWG "dispatch the event" step builds it.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#dispatchMessage
 */
export interface SseEvent {
  /** Event type: the last `event:` field of the block, or `"message"` when none or empty. */
  event: string;
  /** `data:` lines of the block joined with LF (no trailing LF). */
  data: string;
  /** Last event ID in effect when the event was dispatched; `""` when none. */
  id: string;
  /** Reconnection time (ms) from a valid `retry:` field in this event's block, if any. */
  retry?: number;
}

/** Size limits, counted in UTF-8 bytes of the decoded text. */
export interface ParserLimits {
  /**
   * Longest accepted line, terminator excluded. Checked while a line is still
   * arriving, so a never-ending line cannot exhaust memory.
   * @defaultValue {@link DEFAULT_MAX_LINE_BYTES} (4 MiB)
   */
  maxLineBytes?: number | undefined;
  /**
   * Largest accepted event data (all `data:` values plus the LFs joining them).
   * @defaultValue {@link DEFAULT_MAX_EVENT_BYTES} (8 MiB)
   */
  maxEventBytes?: number | undefined;
}

/** 4 MiB: four times the 1 MiB log lines the service may send. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
/** 8 MiB: room for a few maximal lines joined into one event. */
export const DEFAULT_MAX_EVENT_BYTES = 8 * 1024 * 1024;
