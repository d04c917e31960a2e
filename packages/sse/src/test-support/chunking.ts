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

export interface Chunking {
  readonly name: string;
  split(bytes: Uint8Array): Uint8Array[];
}

export const whole: Chunking = { name: 'whole', split: (bytes) => [bytes] };

export const byteByByte: Chunking = {
  name: 'one byte at a time',
  split: (bytes) => Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1)),
};

/** Splits at random points (seeded); includes empty chunks now and then. */
export function randomSplits(seed: number): Chunking {
  return {
    name: `random splits (seed ${seed})`,
    split(bytes) {
      const random = seededRandom(seed);
      const chunks: Uint8Array[] = [];
      let at = 0;
      while (at < bytes.length) {
        const size = random() < 0.1 ? 0 : 1 + Math.floor(random() * 9);
        chunks.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
        at += size;
      }
      return chunks;
    },
  };
}

export const chunkings: readonly Chunking[] = [whole, byteByByte, randomSplits(1), randomSplits(2), randomSplits(3)];

/** Splits `bytes` at the given cut positions (any order, out-of-range ignored). */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const sorted = [...new Set(cuts.filter((cut) => cut > 0 && cut < bytes.length))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let previous = 0;
  for (const cut of sorted) {
    chunks.push(bytes.subarray(previous, cut));
    previous = cut;
  }
  chunks.push(bytes.subarray(previous));
  return chunks;
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function bytes(...parts: (string | readonly number[])[]): Uint8Array {
  const encoded = parts.map((part) => (typeof part === 'string' ? utf8(part) : Uint8Array.from(part)));
  const out = new Uint8Array(encoded.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of encoded) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A ReadableStream over fixed chunks that records cancellation. */
export function streamOf(chunks: readonly Uint8Array[]): {
  stream: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
} {
  let index = 0;
  let wasCancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[index++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() {
        wasCancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, cancelled: () => wasCancelled };
}
