import { EventEmitter } from 'node:events';

/** One stored log line. */
export interface LogLine {
  timestamp: string;
  message: string;
}

/** A line as a fixture or an append gives it: a bare message, or one with its time. */
type GivenLine = string | { message: string; timestamp?: string | undefined };

/** The lines stored: a line without a time is stamped `now` (plus its index, to keep their order). */
export function stampLines(lines: readonly GivenLine[], now: number): LogLine[] {
  return lines.map((line, i) => {
    const { message, timestamp } = typeof line === 'string' ? { message: line, timestamp: undefined } : line;
    return { timestamp: timestamp ?? new Date(now + i).toISOString(), message };
  });
}

let epochs = 0;

/**
 * An append-only log. Readers keep their own cursor and listen to `change` (`true`: discarded), so
 * none misses or repeats a line. A line's event id is the log's epoch and its position: `<epoch>-<n>`.
 */
export class LogSource extends EventEmitter<{ change: [ended: boolean] }> {
  /** Whether the source was discarded. */
  ended = false;

  /**
   * @param epoch names this log among all the sandbox served under its key (the README's "Log
   *   stream"): by default the time in base 36 and a count; a fixture restoring a log gives it back.
   */
  constructor(
    readonly lines: LogLine[] = [],
    readonly epoch: string = `${Date.now().toString(36)}${(epochs++ % 36).toString(36)}`,
  ) {
    super();
    // Any number of readers may follow a log.
    this.setMaxListeners(0);
  }

  /** The event id of line `position` (1-based). */
  eventId(position: number): string {
    return `${this.epoch}-${position}`;
  }

  /** The position to resume after, from a client's `Last-Event-ID`: 0 for an id that is not of this log. */
  resumePosition(lastEventId: string | undefined): number {
    const match = /^([0-9a-z]{1,16})-(\d{1,15})$/.exec(lastEventId?.trim() ?? '');
    return match?.[1] === this.epoch ? Number(match[2]) : 0;
  }

  append(lines: LogLine[]): { firstId: string; lastId: string } {
    const first = this.lines.length + 1;
    this.lines.push(...lines);
    this.emit('change', false);
    return { firstId: this.eventId(first), lastId: this.eventId(this.lines.length) };
  }

  /** Ends every follower: the source is discarded. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.emit('change', true);
    this.removeAllListeners();
  }
}
