import { describe, expect, expectTypeOf, it } from 'vitest';
import { SseError } from './errors.js';
import { createJsonEventDecoder, parseJsonEvents } from './json-events.js';
import type { JsonEvent, TypeGuard } from './json-events.js';
import { readEventStream } from './read-event-stream.js';
import { streamOf, utf8 } from './test-support/chunking.js';
import type { SseEvent } from './event-parser.js';

interface LogEvent {
  event: 'log';
  timestamp: string;
  message: string;
}

/** Shaped like an Ajv standalone validator: a type guard that leaves `errors` behind. */
const isLogEvent: TypeGuard<LogEvent> = Object.assign(
  (value: unknown): value is LogEvent => {
    const ok =
      typeof value === 'object' &&
      value !== null &&
      (value as { event?: unknown }).event === 'log' &&
      typeof (value as { timestamp?: unknown }).timestamp === 'string' &&
      typeof (value as { message?: unknown }).message === 'string';
    isLogEvent.errors = ok ? null : [{ message: 'must be a log event' }];
    return ok;
  },
  { errors: null as unknown },
);

const sse = (data: string, extra: Partial<SseEvent> = {}): SseEvent => ({ event: 'message', data, id: '', ...extra });
const log = (message: string): string => JSON.stringify({ event: 'log', timestamp: '2025-01-01T00:00:00Z', message });

async function* source(events: SseEvent[], onReturn?: () => void): AsyncGenerator<SseEvent> {
  try {
    yield* events;
  } finally {
    onReturn?.();
  }
}

describe('createJsonEventDecoder', () => {
  const decode = createJsonEventDecoder({ validate: isLogEvent });

  it('parses and validates data, keeping event, id and raw data', () => {
    const raw = log('hello');
    expect(decode(sse(raw, { id: '7', event: 'log' }))).toEqual({
      event: 'log',
      id: '7',
      data: { event: 'log', timestamp: '2025-01-01T00:00:00Z', message: 'hello' },
      raw,
    });
  });

  it('throws invalid-json carrying the raw data', () => {
    let caught: unknown;
    try {
      decode(sse('{"event":', { id: '3' }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SseError);
    expect(caught).toMatchObject({ type: 'invalid-json', data: '{"event":', id: '3', event: 'message' });
    expect((caught as SseError).cause).toBeInstanceOf(SyntaxError);
  });

  it('throws invalid-data carrying the raw data, the value and the validator errors', () => {
    expect(() => decode(sse('{"event":"log","message":1}'))).toThrow(
      expect.objectContaining({
        type: 'invalid-data',
        data: '{"event":"log","message":1}',
        value: { event: 'log', message: 1 },
        validationErrors: [{ message: 'must be a log event' }],
      }),
    );
  });

  it('accepts a validator that returns a list of errors', () => {
    const decodeList = createJsonEventDecoder<{ n: number }>({
      validate: (value) => (typeof (value as { n?: unknown }).n === 'number' ? [] : ['n must be a number']),
    });
    expect(decodeList(sse('{"n":1}'))?.data).toEqual({ n: 1 });
    expect(() => decodeList(sse('{"n":"x"}'))).toThrow(
      expect.objectContaining({ validationErrors: ['n must be a number'] }),
    );
  });

  it('passes values through unchecked without a validator', () => {
    expect(createJsonEventDecoder()(sse('[1,2]'))?.data).toEqual([1, 2]);
    expect(createJsonEventDecoder()(sse('null'))?.data).toBeNull();
  });

  it('skips empty data by default, or rejects it as invalid JSON when told not to skip', () => {
    expect(decode(sse(''))).toBeUndefined();
    expect(() => createJsonEventDecoder({ skipEmptyData: false })(sse(''))).toThrow(
      expect.objectContaining({ type: 'invalid-json' }),
    );
  });

  it('skips heartbeat objects and heartbeat event types by default, before validation', () => {
    expect(decode(sse('{"event":"sse_heartbeat","timestamp":"2025-01-01T00:00:00Z"}'))).toBeUndefined();
    expect(decode(sse('{}', { event: 'sse_heartbeat' }))).toBeUndefined();
    const keepHeartbeats = createJsonEventDecoder({ skipHeartbeats: false });
    expect(keepHeartbeats(sse('{"event":"sse_heartbeat"}'))?.data).toEqual({ event: 'sse_heartbeat' });
    const custom = createJsonEventDecoder({ heartbeatEvents: ['ping'] });
    expect(custom(sse('{"event":"ping"}'))).toBeUndefined();
    expect(custom(sse('{"event":"sse_heartbeat"}'))).toBeDefined();
  });

  it('filters by SSE event type and by a custom rule', () => {
    const onlyLogs = createJsonEventDecoder({ eventTypes: ['log'] });
    expect(onlyLogs(sse('1', { event: 'log' }))?.data).toBe(1);
    expect(onlyLogs(sse('not json'))).toBeUndefined();
    const custom = createJsonEventDecoder({ skip: (event) => event.id === 'skip-me' });
    expect(custom(sse('not json', { id: 'skip-me' }))).toBeUndefined();
  });

  it('infers the data type from a type guard', () => {
    expectTypeOf(decode).returns.toEqualTypeOf<JsonEvent<LogEvent> | undefined>();
  });
});

describe('parseJsonEvents', () => {
  it('yields typed events from an SSE body, skipping heartbeats and keep-alives', async () => {
    const body = streamOf([
      utf8(`: keep-alive\n\nid: 1\ndata: ${log('a')}\n\ndata: {"event":"sse_heartbeat","timestamp":"t"}\n\ndata:\n\n`),
      utf8(`id: 2\ndata: ${log('b')}\n\n`),
    ]).stream;
    const stream = parseJsonEvents(readEventStream(body), { validate: isLogEvent });
    const messages: string[] = [];
    for await (const event of stream) {
      expectTypeOf(event.data).toEqualTypeOf<LogEvent>();
      messages.push(`${event.id}:${event.data.message}`);
    }
    expect(messages).toEqual(['1:a', '2:b']);
    expect(stream.lastEventId).toBe('2');
  });

  it('throws invalid data by default and closes the source', async () => {
    let closed = false;
    const stream = parseJsonEvents(
      source([sse(log('a')), sse('oops'), sse(log('c'))], () => (closed = true)),
      {
        validate: isLogEvent,
      },
    );
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of stream) seen.push(event.data.message);
      })(),
    ).rejects.toMatchObject({ type: 'invalid-json', data: 'oops' });
    expect(seen).toEqual(['a']);
    expect(closed).toBe(true);
  });

  it('can skip invalid events, optionally reporting them', async () => {
    const reported: string[] = [];
    const events = [sse(log('a')), sse('oops'), sse('{"event":"log"}'), sse(log('d'))];
    const skipped: string[] = [];
    for await (const event of parseJsonEvents(source(events), { validate: isLogEvent, onInvalid: 'skip' }))
      skipped.push(event.data.message);
    expect(skipped).toEqual(['a', 'd']);
    const told: string[] = [];
    for await (const event of parseJsonEvents(source(events), {
      validate: isLogEvent,
      onInvalid: (error) => reported.push(`${error.type}:${error.data}`),
    })) {
      told.push(event.data.message);
    }
    expect(told).toEqual(['a', 'd']);
    expect(reported).toEqual(['invalid-json:oops', 'invalid-data:{"event":"log"}']);
  });

  it('closes the source when the loop is left early', async () => {
    let closed = false;
    for await (const event of parseJsonEvents(source([sse('1'), sse('2')], () => (closed = true)))) {
      expect(event.data).toBe(1);
      break;
    }
    expect(closed).toBe(true);
  });

  it('falls back to the id of the last event read when the source has no lastEventId', async () => {
    const stream = parseJsonEvents(source([sse('1', { id: 'x' }), sse('{"event":"sse_heartbeat"}', { id: 'y' })]));
    const all = [];
    for await (const event of stream) all.push(event);
    expect(all).toHaveLength(1);
    expect(stream.lastEventId).toBe('y');
  });
});

describe('JSON events: details', () => {
  it('words both failures', () => {
    const decode = createJsonEventDecoder({ validate: isLogEvent });
    expect(() => decode(sse('{"event":'))).toThrow(/^Event data is not valid JSON: /);
    expect(() => decode(sse('{"event":"other"}'))).toThrow(/^Event data failed validation$/);
  });

  it('reports a type guard that says no without leaving errors as `false`', () => {
    const decode = createJsonEventDecoder({ validate: (_value: unknown): _value is never => false });
    expect(() => decode(sse('{}'))).toThrow(expect.objectContaining({ type: 'invalid-data', validationErrors: false }));
  });

  it('passes null and other non-objects through the heartbeat check', () => {
    const decode = createJsonEventDecoder();
    expect(decode(sse('null'))?.data).toBeNull();
    expect(decode(sse('"sse_heartbeat"'))?.data).toBe('sse_heartbeat');
    expect(decode(sse('{"event":7}'))?.data).toEqual({ event: 7 });
  });

  it('has an empty lastEventId before the first event of a source without one', async () => {
    const stream = parseJsonEvents(source([sse('{}', { id: '4' })]));
    expect(stream.lastEventId).toBe('');
    await stream.next();
    expect(stream.lastEventId).toBe('4');
  });

  it('forwards the source’s lastEventId, which may move past the last event read', async () => {
    const { stream: body } = streamOf([utf8('data: {}\n\nid: 5\n\n')]);
    const stream = parseJsonEvents(readEventStream(body));
    expect((await stream.next()).done).toBe(false);
    expect((await stream.next()).done).toBe(true);
    expect(stream.lastEventId).toBe('5');
  });

  it('stops reading a source without return() once closed, and closes a source once', async () => {
    let reads = 0;
    const bare: AsyncIterable<SseEvent> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          reads++;
          return { done: false, value: sse('{}') };
        },
      }),
    };
    const stream = parseJsonEvents(bare);
    await stream.next();
    await stream.close();
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(reads).toBe(1);

    let returns = 0;
    const counted = parseJsonEvents(source([sse('{}')], () => returns++));
    await counted.next();
    await counted.close();
    await counted.close();
    expect(returns).toBe(1);
  });
});
