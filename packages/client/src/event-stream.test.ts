import type { LogEvent } from '@browser-cloud/api-types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, type ClientOptions } from './connection.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  BrowserCloudError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  ValidationError,
} from './errors.js';
import type { LogStream } from './index.js';
import { hangingFetch, json, networkError, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

afterEach(() => {
  vi.useRealTimers();
});

const log = (n: number): LogEvent => ({ event: 'log', timestamp: `2026-11-22T19:58:0${n}.000Z`, message: `line ${n}` });
const block = (id: number | undefined, data: unknown) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: log\ndata: ${JSON.stringify(data)}\n\n`;

/** A text/event-stream response; `open` keeps the body open after the chunks (until aborted). */
function sse(chunks: string[], open = false, headers: Record<string, string> = {}): () => Response {
  return () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        if (!open) controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', ...headers } });
  };
}

function client(fetch: ClientOptions['fetch'], options: Partial<ClientOptions> = {}) {
  return createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:4010', fetch, ...options });
}

async function collect(stream: LogStream, limit = Number.POSITIVE_INFINITY): Promise<LogEvent[]> {
  const out: LogEvent[] = [];
  for await (const event of stream) {
    out.push(event);
    if (out.length >= limit) break;
  }
  return out;
}

describe('browsers.logs.stream', () => {
  it('yields typed log events, skipping heartbeats and comments; exposes lastEventId', async () => {
    const fetch = scriptedFetch(
      sse([
        ': keep-alive\n\n',
        block(1, log(1)),
        block(2, { event: 'sse_heartbeat', timestamp: '2026-11-22T19:58:05Z' }),
        block(3, log(3)).slice(0, 10),
        block(3, log(3)).slice(10),
      ]),
    );
    const stream = client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/var/log/chrome.log' });
    expect(stream.lastEventId).toBe('');
    const seen: Array<[string, string]> = [];
    for await (const event of stream) seen.push([event.message, stream.lastEventId]);
    expect(seen).toEqual([
      ['line 1', '1'],
      ['line 3', '3'],
    ]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'a timestamp that is not a string',
      { event: 'log', timestamp: 1763841481, message: 'm' },
      'event.timestamp',
      'type',
      'event.timestamp: must be string',
    ],
    [
      'a missing message',
      { event: 'log', timestamp: '2026-11-22T19:58:01Z' },
      'event.message',
      'required',
      'event.message: is required',
    ],
  ])('refuses an event with %s: an InvalidResponseError naming the field', async (_what, data, field, rule, why) => {
    const fetch = scriptedFetch(sse([block(1, log(1)), block(2, data)]));
    const stream = client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.message);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['line 1']);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ field, rule });
    expect((error as Error).message).toBe(`Stream event 2 cannot be read as a LogEvent: ${why}`);
  });

  it('reads an event with a property the document does not know, and passes it through', async () => {
    const extra = { ...log(2), level: 'info', source: { file: 'chrome.log' } };
    const fetch = scriptedFetch(sse([block(1, log(1)), block(2, extra), block(3, log(3))]));
    const events = await collect(client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' }));
    expect(events).toEqual([log(1), extra, log(3)]);
  });

  it('refuses an event whose data is not JSON, saying so', async () => {
    const fetch = scriptedFetch(sse([block(1, log(1)), 'id: 2\ndata: {not json\n\n']));
    const stream = client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' });
    const error = await collect(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrowserCloudError);
    expect((error as Error).message).toMatch(/^Stream event 2 is not a LogEvent of the document: .*JSON/i);
  });

  it('sends GET with Accept: text/event-stream, the token and the query', async () => {
    const fetch = scriptedFetch(sse([]));
    await collect(
      client(fetch).browsers.logs.stream('br 1', {
        source: 'supervisor',
        supervisor_process: 'chromium',
        follow: false,
      }),
    );
    const request = fetch.requests[0]!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe(
      'http://127.0.0.1:4010/browsers/br%201/logs/stream?source=supervisor&supervisor_process=chromium&follow=false',
    );
    expect(request.headers.get('accept')).toBe('text/event-stream, application/json;q=0.9');
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(request.headers.get('last-event-id')).toBeNull();
  });

  it('without follow, a normal end of body ends the iteration at once, with no reconnect', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(sse([block(1, log(1))]));
    let done = false;
    const events = collect(client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' })).then((all) => {
      done = true;
      return all;
    });
    // Only microtasks run: an iteration still waiting for a reconnect delay would not finish.
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    expect(await events).toEqual([log(1)]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('with follow, reconnects after a normal end, sending Last-Event-ID', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(sse([block(1, log(1)), block(2, log(2))]), sse([block(3, log(3))], true));
    const stream = client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x', follow: true });
    const events = collect(stream, 3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await events).toEqual([log(1), log(2), log(3)]);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.requests[1]?.headers.get('last-event-id')).toBe('2');
    expect(fetch.requests[1]?.url).toContain('follow=true');
    expect(stream.lastEventId).toBe('3');
    expect(fetch.requests[1]?.signal.aborted).toBe(true);
  });

  it('resumes from a stored lastEventId', async () => {
    const fetch = scriptedFetch(sse([block(8, log(8))]));
    const events = await collect(
      client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' }, { lastEventId: '7' }),
    );
    expect(events).toEqual([log(8)]);
    expect(fetch.requests[0]?.headers.get('last-event-id')).toBe('7');
  });

  it('reconnects after a dropped connection with Last-Event-ID, without follow too', async () => {
    vi.useFakeTimers();
    const dropping = () => {
      const chunks = [new TextEncoder().encode(block(1, log(1)))];
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk) controller.enqueue(chunk);
          else controller.error(networkError('ECONNRESET'));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    const fetch = scriptedFetch(dropping, sse([block(2, log(2))]));
    const events = collect(client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await events).toEqual([log(1), log(2)]);
    expect(fetch.requests[1]?.headers.get('last-event-id')).toBe('1');
  });

  it('an idle connection is dropped after timeoutMs and re-opened', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(sse([block(1, log(1))], true), sse([block(2, log(2))]));
    const events = collect(
      client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' }, { timeoutMs: 5000 }),
    );
    await vi.advanceTimersByTimeAsync(4000);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(await events).toEqual([log(1), log(2)]);
    expect(fetch.requests[0]?.signal.aborted).toBe(true);
    expect(fetch.requests[1]?.headers.get('last-event-id')).toBe('1');
  });

  it('a server that never answers surfaces as APIConnectionTimeoutError once reconnects are exhausted', async () => {
    vi.useFakeTimers();
    const fetch = hangingFetch();
    const outcome = collect(
      client(fetch, { maxRetries: 1 }).browsers.logs.stream('br_1', { source: 'path', path: '/x' }, { timeoutMs: 100 }),
    ).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5000);
    const error = await outcome;
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toContain('100 ms');
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.requests.every((request) => request.signal.aborted)).toBe(true);
  });

  it('an open that delivers no event is a failed attempt: a server that drops or ends every stream empty gives up', async () => {
    vi.useFakeTimers();
    // 200 text/event-stream, then the connection drops before any byte.
    const dropping = () => {
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => controller.error(networkError('ECONNRESET')),
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    for (const follow of [false, true]) {
      const fetch = scriptedFetch(dropping);
      const stream = client(fetch, { maxRetries: 1 }).browsers.logs.stream('br_1', {
        source: 'path',
        path: '/x',
        follow,
      });
      const outcome = collect(stream).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(await outcome).toBeInstanceOf(APIConnectionError);
      expect(fetch).toHaveBeenCalledTimes(2);
    }
    // With follow, a clean empty end is reconnected, up to maxRetries times.
    const empty = scriptedFetch(sse([': nothing yet\n\n']));
    const events = collect(
      client(empty, { maxRetries: 2 }).browsers.logs.stream('br_1', { source: 'path', path: '/x', follow: true }),
    );
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await events).toEqual([]);
    expect(empty).toHaveBeenCalledTimes(3);
  });

  it('onStateChange tells each state with the attempt as counted, and errors without the token', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(
      networkError('ECONNREFUSED', `refused; Authorization: Bearer ${TOKEN}`),
      json(503, { code: 'unavailable', message: 'later' }),
      sse([block(1, log(1))]),
      sse([]),
    );
    const changes: string[] = [];
    const errors: unknown[] = [];
    const stream = client(fetch).browsers.logs.stream(
      'br_1',
      { source: 'path', path: '/x', follow: true },
      {
        maxRetries: 3,
        onStateChange: (change) => {
          changes.push(`${change.state} ${change.attempt}`);
          if (change.state === 'waiting') errors.push(change.error);
        },
      },
    );
    const events = collect(stream, 1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await events).toEqual([log(1)]);
    expect(changes).toEqual([
      'connecting 0',
      'waiting 1',
      'connecting 1',
      'waiting 2',
      'connecting 2',
      'open 2',
      'streaming 2',
      'ended 0',
    ]);
    expect(errors[1]).toBeInstanceOf(InternalServerError);
    let text = '';
    for (let c: unknown = errors[0]; c; c = (c as { cause?: unknown }).cause)
      text += `${String(c)} ${JSON.stringify(c)} ${(c as { code?: string }).code}`;
    expect(text).toContain('ECONNREFUSED');
    expect(text).not.toContain(TOKEN);
  });

  it('retries 503 and goes on', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(json(503, { code: 'unavailable', message: 'later' }), sse([block(1, log(1))]));
    const events = collect(client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(await events).toEqual([log(1)]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('a 5xx that persists surfaces as InternalServerError after maxRetries', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(json(503, { code: 'unavailable', message: 'later' }, { 'x-request-id': 'req_5' }));
    const outcome = collect(client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' })).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, code: 'unavailable', requestId: 'req_5' });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('a 503 with x-should-retry: false throws its InternalServerError at once', async () => {
    const fetch = scriptedFetch(
      json(503, { code: 'unavailable', message: 'down' }, { 'x-should-retry': 'false' }),
      sse([block(1, log(1))]),
    );
    const error = await collect(client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, code: 'unavailable' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('sends the client headers and the call headers; the token and Accept are the stream’s', async () => {
    const fetch = scriptedFetch(sse([block(1, log(1))]));
    const stream = client(fetch, { headers: { 'x-client': 'a', authorization: 'Bearer other' } }).browsers.logs.stream(
      'br_1',
      { source: 'path', path: '/x' },
      { headers: { 'x-call': 'b' } },
    );
    expect(await collect(stream)).toEqual([log(1)]);
    const headers = fetch.requests[0]!.headers;
    expect(headers.get('x-client')).toBe('a');
    expect(headers.get('x-call')).toBe('b');
    expect(headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(headers.get('accept')).toBe('text/event-stream, application/json;q=0.9');
  });

  it('404 throws NotFoundError with the Error body and request id, at once', async () => {
    const fetch = scriptedFetch(
      json(404, { code: 'projects_disabled', message: 'projects are disabled' }, { 'x-request-id': 'req_4' }),
    );
    const error = await collect(client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ isProjectsDisabled: true, requestId: 'req_4', status: 404 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('persistent connection errors throw APIConnectionError without the token', async () => {
    vi.useFakeTimers();
    const fetch = scriptedFetch(networkError('ECONNREFUSED', `refused; Authorization: Bearer ${TOKEN}`));
    const outcome = collect(client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' })).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(fetch).toHaveBeenCalledTimes(3);
    let text = '';
    for (let c: unknown = error; c; c = (c as { cause?: unknown }).cause)
      text += `${String(c)} ${JSON.stringify(c)} ${(c as Error).stack}`;
    expect(text).toContain('ECONNREFUSED');
    expect(text).not.toContain(TOKEN);
  });

  it('aborting the signal ends the iteration without an error and closes the connection', async () => {
    const fetch = scriptedFetch(sse([block(1, log(1))], true));
    const controller = new AbortController();
    const stream = client(fetch).browsers.logs.stream(
      'br_1',
      { source: 'path', path: '/x', follow: true },
      {
        signal: controller.signal,
      },
    );
    const seen: LogEvent[] = [];
    for await (const event of stream) {
      seen.push(event);
      controller.abort();
    }
    expect(seen).toEqual([log(1)]);
    expect(fetch.requests[0]?.signal.aborted).toBe(true);
  });

  it('breaking out of the loop closes the connection', async () => {
    const fetch = scriptedFetch(sse([block(1, log(1)), block(2, log(2))], true));
    expect(await collect(client(fetch).browsers.logs.stream('br_1', { source: 'path', path: '/x' }), 1)).toEqual([
      log(1),
    ]);
    expect(fetch.requests[0]?.signal.aborted).toBe(true);
  });

  it('a body that is not an event stream, and data that is not JSON, are BrowserCloudErrors', async () => {
    const html = scriptedFetch(() => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    const notStream = await collect(client(html).browsers.logs.stream('b', { source: 'path', path: '/x' })).catch(
      (e: unknown) => e,
    );
    expect(notStream).toBeInstanceOf(BrowserCloudError);
    expect((notStream as Error).message).toMatch(/content type/);
    const garbled = scriptedFetch(sse(['data: {not json\n\n']));
    const bad = await collect(client(garbled).browsers.logs.stream('b', { source: 'path', path: '/x' })).catch(
      (e: unknown) => e,
    );
    expect(bad).toBeInstanceOf(BrowserCloudError);
    expect((bad as Error).message).toMatch(/not valid JSON/);
  });

  describe('bad input throws at once, with no request', () => {
    const cases: Array<[string, string, unknown, Partial<ValidationError>]> = [
      ['an empty id', '', { source: 'path', path: '/x' }, { field: 'path.id', rule: 'minLength' }],
      ['source path without path', 'b', { source: 'path' }, { field: 'query.path', rule: 'required' }],
      [
        'source supervisor without supervisor_process',
        'b',
        { source: 'supervisor', path: '/x' },
        {
          field: 'query.supervisor_process',
          rule: 'required',
        },
      ],
      ['an unknown source', 'b', { source: 'zz_not_a_source', path: '/x' }, { field: 'query.source', rule: 'enum' }],
      [
        'an unknown query property',
        'b',
        { source: 'path', path: '/x', zz_not_in_document: 10 },
        {
          field: 'query.zz_not_in_document',
          rule: 'additionalProperties',
        },
      ],
      ['an empty path', 'b', { source: 'path', path: '' }, { field: 'query.path', rule: 'minLength' }],
    ];
    for (const [label, id, query, expected] of cases) {
      it(label, () => {
        const fetch = scriptedFetch(sse([]));
        const logs = client(fetch).browsers.logs;
        let thrown: unknown;
        try {
          logs.stream(id, query as never);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(ValidationError);
        expect(thrown).toMatchObject(expected);
        expect(fetch).not.toHaveBeenCalled();
      });
    }

    it.each([
      ['a line feed', '4\n5'],
      ['a carriage return', '4\r'],
      ['a NUL', '4\u00005'],
    ])('a lastEventId with %s (it travels as the Last-Event-ID header)', (_what, lastEventId) => {
      const fetch = scriptedFetch(sse([]));
      const start = () => client(fetch).browsers.logs.stream('b', { source: 'path', path: '/x' }, { lastEventId });
      expect(start).toThrow(ValidationError);
      expect(start).toThrow('lastEventId: must not contain a line break or NUL');
      expect(fetch).not.toHaveBeenCalled();
    });
  });
});
