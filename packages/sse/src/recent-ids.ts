/**
 * The last `capacity` distinct event IDs, to recognise events a server replays
 * after a reconnect. Bounded so a long-lived stream does not grow without limit.
 */
export class RecentIds {
  private readonly capacity: number;
  private readonly ring: (string | undefined)[];
  private readonly set = new Set<string>();
  private next = 0;

  constructor(capacity: number) {
    this.capacity = Math.max(0, Math.floor(capacity));
    this.ring = new Array<string | undefined>(this.capacity);
  }

  get size(): number {
    return this.set.size;
  }

  has(id: string): boolean {
    return this.set.has(id);
  }

  add(id: string): void {
    if (this.capacity === 0 || this.set.has(id)) return;
    const evicted = this.ring[this.next];
    if (evicted !== undefined) this.set.delete(evicted);
    this.ring[this.next] = id;
    this.set.add(id);
    this.next = (this.next + 1) % this.capacity;
  }
}
