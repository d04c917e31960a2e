/**
 * The last `capacity` distinct event IDs, to recognise events a server replays
 * after a reconnect. Bounded so a long-lived stream does not grow without limit.
 */
export class RecentIds {
  /** The remembered IDs in a ring, oldest at `#next` once full; its length is the capacity. */
  readonly #ring: (string | undefined)[];
  readonly #set = new Set<string>();
  #next = 0;

  constructor(capacity: number) {
    this.#ring = new Array<string | undefined>(Math.max(0, Math.floor(capacity)));
  }

  get size(): number {
    return this.#set.size;
  }

  has(id: string): boolean {
    return this.#set.has(id);
  }

  add(id: string): void {
    const ring = this.#ring;
    if (ring.length === 0 || this.#set.has(id)) return;
    const evicted = ring[this.#next];
    if (evicted !== undefined) this.#set.delete(evicted);
    ring[this.#next] = id;
    this.#set.add(id);
    this.#next = (this.#next + 1) % ring.length;
  }
}
