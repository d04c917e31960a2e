/** One stored log line. Its event id is its 1-based position in the source. */
export interface LogLine {
  timestamp: string;
  message: string;
}

/** Called when lines were appended, or with `ended: true` when the source goes away (reset). */
export type LogListener = (ended: boolean) => void;

/**
 * An append-only log (a file or a supervised process's output). Readers keep their own cursor
 * and are told when the log grows, so that a reader never misses or repeats a line.
 */
export class LogSource {
  readonly #lines: LogLine[] = [];
  readonly #listeners = new Set<LogListener>();
  #ended = false;

  constructor(lines: LogLine[] = []) {
    this.#lines.push(...lines);
  }

  get length(): number {
    return this.#lines.length;
  }

  /** How many readers are following the source now. */
  get followers(): number {
    return this.#listeners.size;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The line whose event id is `id` (1-based). */
  line(id: number): LogLine | undefined {
    return this.#lines[id - 1];
  }

  append(lines: LogLine[]): { firstId: number; lastId: number } {
    const firstId = this.#lines.length + 1;
    this.#lines.push(...lines);
    for (const listener of [...this.#listeners]) listener(false);
    return { firstId, lastId: this.#lines.length };
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: LogListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Ends every follower: the source is discarded (state reset or shutdown). */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const listener of [...this.#listeners]) listener(true);
    this.#listeners.clear();
  }
}
