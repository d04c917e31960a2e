/** The last `capacity` distinct keys, to recognise replayed events; a `Set` keeps insertion order, so its first key is the oldest. */
export class RecentIds extends Set<string> {
  readonly #capacity: number;

  constructor(capacity: number) {
    super();
    this.#capacity = Math.max(0, Math.floor(capacity));
  }

  override add(id: string): this {
    if (this.#capacity === 0 || this.has(id)) return this;
    if (this.size === this.#capacity) this.delete(this.values().next().value!);
    return super.add(id);
  }
}

/**
 * A delivered event's key in {@link RecentIds}: its ID and its data's length and 53-bit hash, so that
 * only a true replay is dropped, not a reused ID. An SSE ID never holds NUL, so no other ID forges it.
 */
export function deliveredKey(id: string, data: string): string {
  // cyrb53 (public domain): two 32-bit multiply-xorshift lanes, mixed into 53 bits.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${id}\u0000${data.length}:${hash.toString(36)}`;
}
