/** Deterministic PRNG (mulberry32), so "random" split points are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Chunking = { readonly name: string; split(bytes: Uint8Array): Uint8Array[] };

export const byteByByte: Chunking = {
  name: 'one byte at a time',
  split: (bytes) => Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)),
};

export const chunkings: readonly Chunking[] = [
  { name: 'whole', split: (bytes) => [bytes] },
  byteByByte,
  // At random points (seeded), with an empty chunk now and then.
  ...[1, 2, 3].map((seed) => ({
    name: `random splits (seed ${seed})`,
    split: (bytes: Uint8Array) => {
      const random = seededRandom(seed);
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = random() < 0.1 ? 0 : 1 + Math.floor(random() * 9);
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      return chunks;
    },
  })),
];

/** Splits `bytes` at the given cut positions (any order, out-of-range ignored). */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const sorted = [0, ...new Set(cuts.filter((cut) => cut > 0 && cut < bytes.length))].sort((a, b) => a - b);
  return sorted.map((cut, i) => bytes.subarray(cut, sorted[i + 1] ?? bytes.length));
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Text (as UTF-8) and raw byte values, concatenated. */
export function bytes(...parts: (string | readonly number[])[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...utf8(part)] : part)));
}

/** A ReadableStream over fixed chunks, pulled one at a time, that records cancellation. */
export function streamOf(chunks: readonly Uint8Array[]) {
  let index = 0;
  let cancelled = false;
  const source: UnderlyingDefaultSource<Uint8Array> = {
    pull: (controller) => (index < chunks.length ? controller.enqueue(chunks[index++]!) : controller.close()),
    cancel: () => {
      cancelled = true;
    },
  };
  return { stream: new ReadableStream(source, { highWaterMark: 0 }), cancelled: () => cancelled };
}
