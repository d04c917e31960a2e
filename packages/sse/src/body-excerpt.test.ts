import { describe, expect, it } from 'vitest';
import { readBoundedBody } from './body-excerpt.js';

/** A body served in `chunks`, recording how many were pulled and whether the rest was cancelled. */
function body(chunks: Array<string | Uint8Array | Error>) {
  const state = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks[state.pulled++];
        if (next === undefined) controller.close();
        else if (next instanceof Error) controller.error(next);
        else controller.enqueue(typeof next === 'string' ? encoder.encode(next) : next);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

describe('readBoundedBody', () => {
  it('reads a body that fits whole', async () => {
    const { stream } = body(['ab', 'cd']);
    expect(await readBoundedBody(stream, 4)).toEqual({ text: 'abcd', bytes: 4, truncated: false, failed: false });
  });

  it('stops at the limit, cancels the rest and says it was cut', async () => {
    const { stream, state } = body(['abc', 'def', 'never pulled']);
    expect(await readBoundedBody(stream, 4)).toEqual({ text: 'abcd', bytes: 4, truncated: true, failed: false });
    expect(state.pulled).toBe(2);
    expect(state.cancelled).toBe(true);
  });

  it('drops a character cut at the limit', async () => {
    const { stream } = body(['aé']);
    expect(await readBoundedBody(stream, 2)).toMatchObject({ text: 'a', bytes: 2, truncated: true });
  });

  it('a body that breaks off gives what came before, marked failed', async () => {
    const { stream } = body(['ab', new TypeError('terminated')]);
    expect(await readBoundedBody(stream, 10)).toEqual({ text: 'ab', bytes: 2, truncated: false, failed: true });
  });

  it('with rethrow, a body that breaks off throws its failure as it came', async () => {
    const failure = new TypeError('terminated');
    const { stream } = body(['ab', failure]);
    await expect(readBoundedBody(stream, 10, true)).rejects.toBe(failure);
    const { stream: whole } = body(['ab']);
    expect(await readBoundedBody(whole, 10, true)).toEqual({ text: 'ab', bytes: 2, truncated: false, failed: false });
  });

  it('no body, and an empty chunk at the limit', async () => {
    expect(await readBoundedBody(null, 10)).toEqual({ text: '', bytes: 0, truncated: false, failed: false });
    const { stream } = body(['ab', new Uint8Array(0)]);
    expect(await readBoundedBody(stream, 2)).toEqual({ text: 'ab', bytes: 2, truncated: false, failed: false });
  });
});
