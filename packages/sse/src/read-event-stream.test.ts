import { describe, expect, it } from 'vitest';
import { SseError } from './errors.js';
import { readEventStream } from './read-event-stream.js';
import { chunkings, streamOf, utf8 } from './test-support/chunking.js';
import { countAbortListeners } from './test-support/abort-listeners.js';
import { manualBody } from './test-support/fake-fetch.js';
import type { SseEvent } from './event-parser.js';

async function collect(iterable: AsyncIterable<SseEvent>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

const sample = utf8('\uFEFF: hi\nid: 1\nevent: log\ndata: a\ndata: b\n\nretry: 50\ndata: é😀\n\nid: 3\n\ndata: tail');

describe('readEventStream', () => {
  for (const chunking of chunkings) {
    it(`yields the events of a body (${chunking.name})`, async () => {
      const { stream } = streamOf(chunking.split(sample));
      const events = readEventStream(stream);
      expect(await collect(events)).toEqual([
        { event: 'log', data: 'a\nb', id: '1' },
        { event: 'message', data: 'é😀', id: '1', retry: 50 },
      ]);
      expect(events.lastEventId).toBe('3');
      expect(events.retry).toBe(50);
    });
  }

  it('is exported from the package entry point; the layers from the parser entry only', async () => {
    const entry = await import('./index.js');
    expect(entry.readEventStream).toBe(readEventStream);
    expect(Object.keys(entry).sort()).toEqual([
      'SseError',
      'connectEventStream',
      'createJsonEventDecoder',
      'isSseError',
      'parseJsonEvents',
      'readBoundedBody',
      'readEventStream',
    ]);
    const parser = await import('./parser.js');
    expect(Object.keys(parser).sort()).toEqual([
      'DEFAULT_MAX_EVENT_BYTES',
      'DEFAULT_MAX_LINE_BYTES',
      'EventParser',
      'LineDecoder',
      'createParser',
      'utf8ByteLength',
    ]);
  });

  it('cancels the body when the loop is left early', async () => {
    const { stream, cancelled } = streamOf([utf8('data: 1\n\ndata: 2\n\n'), utf8('data: 3\n\n')]);
    const events = readEventStream(stream);
    for await (const event of events) {
      expect(event.data).toBe('1');
      break;
    }
    expect(cancelled()).toBe(true);
    expect(events.lastEventId).toBe('');
    expect(await events.next()).toEqual({ done: true, value: undefined });
  });

  it('reports the last event ID of the last event handed out, not of the whole chunk', async () => {
    const { stream } = streamOf([utf8('id: 1\ndata: a\n\nid: 2\ndata: b\n\n')]);
    const events = readEventStream(stream);
    const first = await events.next();
    expect(first.value).toMatchObject({ id: '1' });
    expect(events.lastEventId).toBe('1');
    await events.next();
    expect(events.lastEventId).toBe('2');
  });

  it('keeps the ID of the last event handed out when closed mid-batch', async () => {
    const { stream } = streamOf([utf8('id: 1\ndata: a\n\nid: 2\ndata: b\n\n')]);
    const events = readEventStream(stream);
    for await (const event of events) {
      expect(event.id).toBe('1');
      break;
    }
    expect(events.lastEventId).toBe('1');
  });

  it('starts from a given last event ID', async () => {
    const { stream } = streamOf([utf8('data: a\n\n')]);
    expect(await collect(readEventStream(stream, { lastEventId: '41' }))).toEqual([
      { event: 'message', data: 'a', id: '41' },
    ]);
  });

  it('reports comments', async () => {
    const comments: string[] = [];
    const { stream } = streamOf([utf8(': ping\n\n:pong\n')]);
    expect(await collect(readEventStream(stream, { onComment: (c) => comments.push(c) }))).toEqual([]);
    expect(comments).toEqual(['ping', 'pong']);
  });

  it('hands out events before a limit error, then throws it, with the body cancelled', async () => {
    const { stream, cancelled } = streamOf([utf8('data: ok\n\ndata: 0123456789\n\n'), utf8('data: never\n\n')]);
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const event of readEventStream(stream, { maxLineBytes: 8 })) seen.push(event.data);
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual(['ok']);
    expect(caught).toBeInstanceOf(SseError);
    expect(caught).toMatchObject({ type: 'line-too-long', limit: 8 });
    expect(cancelled()).toBe(true);
  });

  it('applies maxEventBytes', async () => {
    const { stream, cancelled } = streamOf([utf8('data: abc\ndata: def\n\n')]);
    await expect(collect(readEventStream(stream, { maxEventBytes: 6 }))).rejects.toMatchObject({
      type: 'event-too-large',
    });
    expect(cancelled()).toBe(true);
  });

  it('wraps a body read error as a network SseError', async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(utf8('data: a\n\n'));
        } else {
          controller.error(new TypeError('socket hang up'));
        }
      },
    });
    const seen: string[] = [];
    const error = await (async () => {
      try {
        for await (const event of readEventStream(stream)) seen.push(event.data);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(seen).toEqual(['a']);
    expect(error).toMatchObject({
      type: 'network',
      message: 'Reading the event stream failed',
      cause: expect.any(TypeError),
    });
  });

  it('ends silently and cancels the body on abort, even while a read is pending', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(utf8('data: a\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const events = readEventStream(stream, { signal: controller.signal });
    expect(await events.next()).toEqual({ done: false, value: { event: 'message', data: 'a', id: '' } });
    // The body has nothing more: this read stays pending until the abort ends it.
    const pending = events.next();
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(cancelled).toBe(true);
  });

  it('streams sharing one signal add no listener each to it (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const bodies = Array.from({ length: 20 }, () => manualBody());
      for (const body of bodies) body.push('data: a\n\n');
      const streams = bodies.map(({ body }) => readEventStream(body, { signal: controller.signal }));
      await Promise.all(streams.map((events) => events.next()));
      const ends = streams.map((events) => events.next());
      // Node emits the warning on a later tick; by the next macrotask it has been emitted.
      await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      expect((await Promise.all(ends)).every((result) => result.done)).toBe(true);
      expect(bodies.every((body) => body.cancelled)).toBe(true);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('attaches one abort listener however many reads it takes, and removes it at the end', async () => {
    const listeners = countAbortListeners();
    try {
      const controller = new AbortController();
      const body = manualBody();
      const events = readEventStream(body.body, { signal: controller.signal });
      const seen: number[] = [];
      for (let n = 0; n < 5; n++) {
        const next = events.next();
        body.push(`data: ${n}\n\n`);
        expect(await next).toEqual({ done: false, value: { event: 'message', data: String(n), id: '' } });
        seen.push(listeners.live());
      }
      expect(seen).toEqual([1, 1, 1, 1, 1]);
      const end = events.next();
      body.end();
      expect(await end).toEqual({ done: true, value: undefined });
      expect(listeners.live()).toBe(0);
      expect(listeners.added()).toBe(1);
    } finally {
      listeners.restore();
    }
  });

  it('does nothing but cancel when the signal is already aborted', async () => {
    const { stream, cancelled } = streamOf([utf8('data: a\n\n')]);
    expect(await collect(readEventStream(stream, { signal: AbortSignal.abort() }))).toEqual([]);
    expect(cancelled()).toBe(true);
  });

  it('serves concurrent next() calls in order', async () => {
    const { stream } = streamOf([utf8('data: 1\n\n'), utf8('data: 2\n\n'), utf8('data: 3\n\n')]);
    const events = readEventStream(stream);
    const results = await Promise.all([events.next(), events.next(), events.next(), events.next()]);
    expect(results.map((r) => (r.done ? 'done' : r.value.data))).toEqual(['1', '2', '3', 'done']);
  });

  it('close() before iterating cancels the body', async () => {
    const { stream, cancelled } = streamOf([utf8('data: 1\n\n')]);
    const events = readEventStream(stream);
    await events.close();
    expect(cancelled()).toBe(true);
    expect((await events.next()).done).toBe(true);
  });

  it('lets go of the body once it ended', async () => {
    const { stream } = streamOf([utf8('data: 1\n\n')]);
    expect(await collect(readEventStream(stream))).toHaveLength(1);
    expect(stream.locked).toBe(false);
  });

  it('serves concurrent next() calls in order when one chunk holds several events', async () => {
    const { stream } = streamOf([utf8('data: 1\n\ndata: 2\n\n'), utf8('data: 3\n\n')]);
    const events = readEventStream(stream);
    const results = await Promise.all([events.next(), events.next(), events.next(), events.next()]);
    expect(results.map((r) => (r.done ? 'done' : r.value.data))).toEqual(['1', '2', '3', 'done']);
  });
});
