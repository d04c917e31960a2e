import { EventEmitter } from 'node:events';

/** One stored log line. */
export interface LogLine {
  timestamp: string;
  message: string;
}

let epochs = 0;

/**
 * An append-only log (a file or a supervised process's output). Readers keep their own cursor
 * and listen to `change`, emitted when lines are appended, and with `true` when the source is
 * discarded (reset, delete), so that a reader never misses or repeats a line. The event id of a
 * line is the log's epoch and the line's 1-based position: `<epoch>-<n>`.
 */
export class LogSource extends EventEmitter<{ change: [ended: boolean] }> {
  readonly lines: LogLine[];
  /** Whether the source was discarded. */
  ended = false;

  /**
   * @param epoch names this log among every log the sandbox ever served under the same key: a
   *   restarted or reset sandbox starts its lines at 1 again, and without it a client resuming
   *   with `Last-Event-ID: 5` would skip the new log's first five lines. By default the time in
   *   base 36 and a count for logs made in the same millisecond; a fixture restoring a log as it
   *   was gives its epoch back.
   */
  constructor(
    lines: LogLine[] = [],
    readonly epoch: string = `${Date.now().toString(36)}${(epochs++ % 36).toString(36)}`,
  ) {
    super();
    this.lines = [...lines];
    // Any number of readers may follow a log.
    this.setMaxListeners(0);
  }

  /** The event id of line `position` (1-based). */
  eventId(position: number): string {
    return `${this.epoch}-${position}`;
  }

  /**
   * The position to resume after, from a reconnecting client's `Last-Event-ID`: an id of this
   * log gives its line; anything else (an id of a log before a restart or a reset) starts from
   * the beginning, so no line of this log is skipped.
   */
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
