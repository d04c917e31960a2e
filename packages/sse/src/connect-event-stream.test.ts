import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectEventStream } from './connect-event-stream.js';
import type { ConnectEventStreamOptions, EventStreamFetch, HeadersContext, RetryInfo } from './connect-event-stream.js';
import { SseError } from './errors.js';
import { countAbortListeners } from './test-support/abort-listeners.js';
import { fakeFetch, manualBody, sseResponse } from './test-support/fake-fetch.js';
import { logEvent, openStream, startServer } from './test-support/sse-server.js';
import type { Handler, TestServer } from './test-support/sse-server.js';
import type { SseEvent } from './event-parser.js';

let server: TestServer | undefined;

afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

/** Timers and `performance.now()` under the test's control: waits happen when the test says, not by luck. */
function fakeTime(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'Date'] });
}

/** Runs `promise` to completion while fake time advances through every timer it sets. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  const result = await outcome;
  if ('error' in result) throw result.error;
  return result.value;
}

const URL_ = 'https://stream.example/browsers/b1/logs/stream';

async function serve(handler: Handler): Promise<TestServer> {
  server = await startServer(handler);
  return server;
}

/** Short, jitter-free delays: the tests never wait on luck, only on these. */
const fast: ConnectEventStreamOptions = { retryDelay: 5, retryJitter: 0, maxRetryDelay: 40, idleTimeout: 5000 };

async function collect(iterable: AsyncIterable<SseEvent>, limit = Number.POSITIVE_INFINITY): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of iterable) {
    events.push(event);
    if (events.length >= limit) break;
  }
  return events;
}

async function failure(promise: Promise<unknown>): Promise<SseError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SseError);
    return error as SseError;
  }
  throw new Error('expected a failure');
}

const message = (event: SseEvent): string => (JSON.parse(event.data) as { message: string }).message;

function timeouts(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}

describe('connectEventStream: reconnect and resume', () => {
  it('reconnects after a drop mid-event and a normal end, resuming with Last-Event-ID and fresh headers', async () => {
    const srv = await serve(({ res, index }) => {
      if (index === 0) {
        openStream(res);
        // The third event is cut in the middle: it must be discarded, then re-sent.
        res.write(`${logEvent(1, 'a')}${logEvent(2, 'b')}id: 3\ndata: {"event":"log","mess`, () => res.destroy());
      } else if (index === 1) {
        openStream(res);
        res.end(`${logEvent(3, 'c')}${logEvent(4, 'd')}`);
      } else {
        res.writeHead(204).end();
      }
    });
    const contexts: HeadersContext[] = [];
    const retries: RetryInfo[] = [];
    let fetches = 0;
    const connection = connectEventStream(srv.url, {
      ...fast,
      fetch: (input, init) => {
        fetches++;
        return fetch(input, init);
      },
      headers: async (context) => {
        contexts.push(context);
        await Promise.resolve();
        return { Authorization: `Bearer token-${contexts.length}`, 'X-Extra': 'yes' };
      },
      onRetry: (info) => retries.push(info),
    });
    const events = await collect(connection);
    expect(events.map(message)).toEqual(['a', 'b', 'c', 'd']);
    expect(events.map((event) => event.id)).toEqual(['1', '2', '3', '4']);
    expect(connection.lastEventId).toBe('4');
    expect(fetches).toBe(3);
    expect(srv.requests.map((r) => r.headers['last-event-id'])).toEqual([undefined, '2', '4']);
    expect(srv.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-2',
      'Bearer token-3',
    ]);
    for (const request of srv.requests) {
      expect(request.headers.accept).toBe('text/event-stream');
      expect(request.headers['cache-control']).toBe('no-cache');
      expect(request.headers['x-extra']).toBe('yes');
    }
    expect(contexts).toEqual([
      { attempt: 0, lastEventId: '' },
      { attempt: 1, lastEventId: '2' },
      { attempt: 1, lastEventId: '4' },
    ]);
    expect(retries.map((r) => r.reason)).toEqual(['network', 'end']);
  });

  it('resumes from a stored lastEventId on the first request', async () => {
    const srv = await serve(({ req, res, index }) => {
      if (index > 0) return void res.writeHead(204).end();
      const from = Number(req.headers['last-event-id']);
      openStream(res);
      res.end(`${logEvent(from + 1, 'next')}${logEvent(from + 2, 'after')}`);
    });
    const connection = connectEventStream(srv.url, { ...fast, lastEventId: '41' });
    const events = await collect(connection);
    expect(srv.requests[0]!.headers['last-event-id']).toBe('41');
    expect(events.map((e) => e.id)).toEqual(['42', '43']);
    expect(connection.lastEventId).toBe('43');
  });

  it('does not send Last-Event-ID after the server reset the ID to empty', async () => {
    const srv = await serve(({ res, index }) => {
      if (index === 0) {
        openStream(res);
        res.end(`${logEvent(1, 'a')}id\ndata: {}\n\n`);
      } else res.writeHead(204).end();
    });
    await collect(connectEventStream(srv.url, fast));
    expect(srv.requests[1]!.headers['last-event-id']).toBeUndefined();
  });

  it('sends a non-ASCII last event ID as UTF-8 bytes', async () => {
    const srv = await serve(({ res, index }) => {
      if (index > 0) return void res.writeHead(204).end();
      openStream(res);
      res.end('id: é😀\ndata: x\n\n');
    });
    await collect(connectEventStream(srv.url, fast));
    const header = srv.requests[1]!.headers['last-event-id'] as string;
    expect(Buffer.from(header, 'latin1').toString('utf8')).toBe('é😀');
  });

  it('never delivers a replayed event twice', async () => {
    const srv = await serve(({ res, index }) => {
      if (index < 2) openStream(res);
      if (index === 0) {
        res.end(`${logEvent(1, 'a')}${logEvent(2, 'b')}${logEvent(3, 'c')}`);
      } else if (index === 1) {
        // A server that replays from before Last-Event-ID, including an ID-less part of event 3.
        res.end(
          `${logEvent(2, 'b')}${logEvent(3, 'c')}${logEvent(undefined, 'c-continued')}` +
            `${logEvent(4, 'd')}${logEvent(undefined, 'd-continued')}${logEvent(5, 'e')}`,
        );
      } else {
        res.writeHead(204).end();
      }
    });
    const connection = connectEventStream(srv.url, fast);
    const events = await collect(connection);
    expect(events.map(message)).toEqual(['a', 'b', 'c', 'd', 'd-continued', 'e']);
    expect(events.map((e) => e.id)).toEqual(['1', '2', '3', '4', '4', '5']);
  });

  it('delivers repeated IDs again when deduplication is off', async () => {
    const srv = await serve(({ res, index }) => {
      openStream(res);
      res.end(index === 0 ? logEvent(1, 'a') : logEvent(1, 'again'));
    });
    const events = await collect(connectEventStream(srv.url, { ...fast, dedupeWindow: 0 }), 2);
    expect(events.map(message)).toEqual(['a', 'again']);
  });

  it('honours the server retry: time (within 500 ms – 60 s) and resets backoff once a connection delivers an event', async () => {
    fakeTime();
    const { fetch, calls } = fakeFetch((index) => {
      if (index === 0) return sseResponse(`retry: 700\n${logEvent(1, 'a')}`);
      if (index === 1 || index === 2) return new Response(null, { status: 503 });
      if (index === 3) return sseResponse(logEvent(2, 'b'));
      return new Response(null, { status: 204 });
    });
    const retries: RetryInfo[] = [];
    const opens: number[] = [];
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch,
      maxRetryDelay: 2000,
      onRetry: (info) => retries.push(info),
      onOpen: ({ attempt, response }) => {
        expect(response.status).toBe(200);
        opens.push(attempt);
      },
    });
    const events = await settle(collect(connection));
    expect(events.map(message)).toEqual(['a', 'b']);
    expect(events[0]!.retry).toBe(700);
    expect(connection.retry).toBe(700);
    // 700 after the end, doubled per failure (capped at 2000), back to 700 after the open on attempt 3.
    expect(retries.map((r) => [r.reason, r.attempt, r.delay])).toEqual([
      ['end', 1, 700],
      ['status', 2, 1400],
      ['status', 3, 2000],
      ['end', 1, 700],
    ]);
    expect(retries[1]!.status).toBe(503);
    expect(opens).toEqual([0, 3]);
    expect(calls).toHaveLength(5);
  });

  it('clamps the server retry: to at least 500 ms and at most 60 s', async () => {
    fakeTime();
    for (const [field, expected] of [
      ['0', 500],
      ['1', 500],
      ['100000000000000000000', 60_000],
    ] as const) {
      const { fetch, calls } = fakeFetch((index) =>
        index === 0 ? sseResponse(`retry: ${field}\n${logEvent(1, 'a')}`) : new Response(null, { status: 204 }),
      );
      const retries: RetryInfo[] = [];
      const connection = connectEventStream(URL_, { ...fast, fetch, onRetry: (info) => retries.push(info) });
      const started = Date.now();
      await settle(collect(connection));
      expect(connection.retry).toBe(expected);
      expect(retries.map((r) => r.delay)).toEqual([expected]);
      expect(calls).toHaveLength(2);
      expect(Date.now() - started).toBe(expected);
    }
  });
});

describe('connectEventStream: status policy', () => {
  it('retries 500 then opens on 200, waiting at least Retry-After (capped)', async () => {
    const srv = await serve(({ res, index }) => {
      if (index === 0) return void res.writeHead(500, { 'Retry-After': '1' }).end('oops');
      if (index === 1) {
        openStream(res);
        return void res.end(logEvent(1, 'ok'));
      }
      res.writeHead(204).end();
    });
    const retries: RetryInfo[] = [];
    const events = await collect(
      connectEventStream(srv.url, { ...fast, maxRetryAfter: 25, onRetry: (r) => retries.push(r) }),
    );
    expect(events.map(message)).toEqual(['ok']);
    expect(retries[0]).toEqual({ attempt: 1, delay: 25, reason: 'status', status: 500 });
  });

  it('retries 408, 429 and 503 with growing backoff', async () => {
    const statuses = [408, 429, 503];
    const srv = await serve(({ res, index }) => {
      const status = statuses[index];
      if (status !== undefined) return void res.writeHead(status).end();
      res.writeHead(204).end();
    });
    const retries: RetryInfo[] = [];
    await collect(connectEventStream(srv.url, { ...fast, onRetry: (r) => retries.push(r) }));
    expect(retries.map((r) => [r.status, r.delay])).toEqual([
      [408, 5],
      [429, 10],
      [503, 20],
    ]);
  });

  it('ends normally on 204 without reconnecting', async () => {
    const srv = await serve(({ res }) => void res.writeHead(204).end());
    const connection = connectEventStream(srv.url, fast);
    expect(await collect(connection)).toEqual([]);
    expect(srv.requests).toHaveLength(1);
  });

  it('fails for good on 401 with status, content type and a bounded body excerpt, never the token', async () => {
    const body = JSON.stringify({ error: 'unauthorized', detail: 'x'.repeat(2000) });
    const srv = await serve(({ res }) => void res.writeHead(401, { 'Content-Type': 'application/json' }).end(body));
    const error = await failure(
      collect(connectEventStream(srv.url, { ...fast, headers: { Authorization: 'Bearer secret-token' } })),
    );
    expect(error.type).toBe('bad-status');
    expect(error.message).toBe('Event stream request failed with status 401');
    expect(error.status).toBe(401);
    expect(error.contentType).toBe('application/json');
    expect(error.bodyExcerpt).toBe(body.slice(0, 512));
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('secret-token');
    expect(srv.requests).toHaveLength(1);
  });

  it('fails for good on 503 with x-should-retry: false, and retries a 404 with x-should-retry: true', async () => {
    const refused = fakeFetch(() => new Response(null, { status: 503, headers: { 'x-should-retry': 'false' } }));
    const error = await failure(collect(connectEventStream(URL_, { ...fast, fetch: refused.fetch })));
    expect(error).toMatchObject({ type: 'bad-status', status: 503 });
    expect(refused.calls).toHaveLength(1);

    const told = fakeFetch((index) =>
      index === 0
        ? new Response(null, { status: 404, headers: { 'x-should-retry': 'true' } })
        : new Response(null, { status: 204 }),
    );
    const retries: RetryInfo[] = [];
    await collect(connectEventStream(URL_, { ...fast, fetch: told.fetch, onRetry: (r) => retries.push(r) }));
    expect(retries.map((r) => [r.reason, r.status])).toEqual([['status', 404]]);
    expect(told.calls).toHaveLength(2);
  });

  it('throws what refusedError makes of a fatal status, with the response unread', async () => {
    class CallerError extends Error {}
    const { fetch } = fakeFetch(() => new Response('{"code":"forbidden"}', { status: 403 }));
    const seen: Response[] = [];
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch,
      refusedError: async (response) => {
        seen.push(response);
        return new CallerError(`refused: ${response.status} ${await response.text()}`);
      },
    });
    const error = await collect(connection).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallerError);
    expect((error as Error).message).toBe('refused: 403 {"code":"forbidden"}');
    expect(seen.map((r) => r.status)).toEqual([403]);
  });

  it('keeps what refusedError makes of each retried status, and gives the last as the cause', async () => {
    const { fetch, calls } = fakeFetch((index) => new Response(`attempt ${index}`, { status: 503 }));
    const retries: RetryInfo[] = [];
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch,
      maxRetries: 2,
      refusedError: async (response) => new Error(await response.text()),
      onRetry: (r) => retries.push(r),
    });
    const error = await failure(collect(connection));
    expect(error).toMatchObject({ type: 'retries-exhausted', attempts: 2, status: 503 });
    expect((error.cause as Error).message).toBe('attempt 2');
    expect(retries.map((r) => (r.error as Error).message)).toEqual(['attempt 0', 'attempt 1']);
    expect(calls).toHaveLength(3);
  });

  it('does not ask refusedError about a 200 of the wrong content type', async () => {
    const { fetch } = fakeFetch(
      () => new Response('<html/>', { status: 200, headers: { 'content-type': 'text/html' } }),
    );
    let asked = false;
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch,
      refusedError: () => {
        asked = true;
        return new Error('no');
      },
    });
    expect(await failure(collect(connection))).toMatchObject({ type: 'bad-content-type', bodyExcerpt: '<html/>' });
    expect(asked).toBe(false);
  });

  it('fails for good on a 200 with the wrong content type', async () => {
    const srv = await serve(
      ({ res }) => void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<html>login</html>'),
    );
    const error = await failure(collect(connectEventStream(srv.url, fast)));
    expect(error).toMatchObject({
      type: 'bad-content-type',
      status: 200,
      contentType: 'text/html; charset=utf-8',
      bodyExcerpt: '<html>login</html>',
      message: 'Event stream response has content type "text/html; charset=utf-8", expected text/event-stream',
    });
    expect(srv.requests).toHaveLength(1);
  });

  it('accepts text/event-stream in any case and with parameters', async () => {
    const srv = await serve(({ res, index }) => {
      if (index > 0) return void res.writeHead(204).end();
      openStream(res, 'Text/Event-Stream; Charset=UTF-8');
      res.end(logEvent(1, 'ok'));
    });
    expect((await collect(connectEventStream(srv.url, fast))).map(message)).toEqual(['ok']);
  });

  it('gives up after maxRetries consecutive failures with the last status', async () => {
    const srv = await serve(({ res }) => void res.writeHead(503).end());
    const error = await failure(collect(connectEventStream(srv.url, { ...fast, maxRetries: 3 })));
    expect(error).toMatchObject({ type: 'retries-exhausted', attempts: 3, status: 503 });
    expect(srv.requests).toHaveLength(4);
  });

  it('retries network errors and reports the cause when giving up', async () => {
    const dead = await startServer(() => {});
    const url = dead.url;
    await dead.close();
    const retries: RetryInfo[] = [];
    const error = await failure(
      collect(connectEventStream(url, { ...fast, maxRetries: 2, onRetry: (r) => retries.push(r) })),
    );
    expect(error).toMatchObject({ type: 'retries-exhausted', attempts: 2 });
    expect(error.cause).toBeInstanceOf(Error);
    expect(retries.map((r) => r.reason)).toEqual(['network', 'network']);
  });

  it('ends at the end of the body with reconnectOnEnd: false, but still reconnects after a drop', async () => {
    const srv = await serve(({ res, index }) => {
      openStream(res);
      if (index === 0) res.write(logEvent(1, 'a'), () => res.destroy());
      else res.end(logEvent(2, 'b'));
    });
    const retries: RetryInfo[] = [];
    const events = await collect(
      connectEventStream(srv.url, { ...fast, reconnectOnEnd: false, onRetry: (r) => retries.push(r) }),
    );
    expect(events.map(message)).toEqual(['a', 'b']);
    expect(retries.map((r) => r.reason)).toEqual(['network']);
    expect(srv.requests).toHaveLength(2);
  });

  it('ends at a 200 without a body with reconnectOnEnd: false, as at any normal end', async () => {
    const { fetch, calls } = fakeFetch((index) =>
      index === 0
        ? new Response(null, { status: 200, headers: { 'content-type': 'text/event-stream' } })
        : sseResponse(logEvent(1, 'never asked for')),
    );
    const retries: RetryInfo[] = [];
    const events = await collect(
      connectEventStream(URL_, { ...fast, fetch, reconnectOnEnd: false, onRetry: (r) => retries.push(r) }),
    );
    expect(events).toEqual([]);
    expect(retries).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('ends normally when maxRetries is reached after a normal end of body', async () => {
    const srv = await serve(({ res }) => {
      openStream(res);
      res.end(logEvent(1, 'once'));
    });
    const events = await collect(connectEventStream(srv.url, { ...fast, maxRetries: 0 }));
    expect(events.map(message)).toEqual(['once']);
    expect(srv.requests).toHaveLength(1);
  });
});

describe('connectEventStream: idle timeout', () => {
  it('drops a stalled connection and re-opens it', async () => {
    fakeTime();
    const stalled = manualBody();
    stalled.push(logEvent(1, 'before stall')); // then nothing, forever
    const { fetch, calls } = fakeFetch((index) => {
      if (index === 0) return sseResponse(stalled.body);
      if (index === 1) return sseResponse(logEvent(2, 'after'));
      return new Response(null, { status: 204 });
    });
    const retries: RetryInfo[] = [];
    const connection = connectEventStream(URL_, { ...fast, fetch, idleTimeout: 150, onRetry: (r) => retries.push(r) });
    expect(message((await connection.next()).value as SseEvent)).toBe('before stall');
    const rest = collect(connection);
    // Just short of the idle timeout nothing happens; at it, the connection is dropped.
    await vi.advanceTimersByTimeAsync(149);
    expect(calls).toHaveLength(1);
    expect(stalled.cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stalled.cancelled).toBe(true);
    expect(calls[0]!.signal.aborted).toBe(true);
    expect((await settle(rest)).map(message)).toEqual(['after']);
    expect(retries[0]!.reason).toBe('idle-timeout');
    expect(retries[0]!.error).toMatchObject({ type: 'idle-timeout' });
    expect(calls[1]!.headers.get('last-event-id')).toBe('1');
  });

  it('also times out a server that never answers', async () => {
    fakeTime();
    const { fetch } = fakeFetch((index) => (index === 0 ? undefined : new Response(null, { status: 204 })));
    const retries: RetryInfo[] = [];
    await settle(
      collect(connectEventStream(URL_, { ...fast, fetch, idleTimeout: 100, onRetry: (r) => retries.push(r) })),
    );
    expect(retries.map((r) => r.reason)).toEqual(['idle-timeout']);
  });

  it('reports idle timeouts as the cause when giving up', async () => {
    fakeTime();
    const { fetch, calls } = fakeFetch(() => undefined); // never answers
    const error = await failure(
      settle(collect(connectEventStream(URL_, { ...fast, fetch, idleTimeout: 60, maxRetries: 1 }))),
    );
    expect(error).toMatchObject({ type: 'retries-exhausted', attempts: 1 });
    expect(error.cause).toMatchObject({ type: 'idle-timeout' });
    expect(calls).toHaveLength(2);
  });

  it('is kept alive by comments alone', async () => {
    fakeTime();
    // A comment every 20 ms for 1 s, with a 400 ms idle timeout: silence would time out twice over.
    const body = manualBody();
    const { fetch } = fakeFetch((index) =>
      index === 0 ? sseResponse(body.body) : new Response(null, { status: 204 }),
    );
    const retries: RetryInfo[] = [];
    const comments: string[] = [];
    const started = performance.now();
    const events = collect(
      connectEventStream(URL_, {
        ...fast,
        fetch,
        idleTimeout: 400,
        onRetry: (r) => retries.push(r),
        onComment: (c) => comments.push(c),
      }),
    );
    for (let tick = 1; tick < 50; tick++) {
      await vi.advanceTimersByTimeAsync(20);
      body.push(': keep-alive\n\n');
    }
    await vi.advanceTimersByTimeAsync(20);
    body.push(logEvent(1, 'done'));
    body.end();
    expect((await settle(events)).map(message)).toEqual(['done']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    expect(comments).toHaveLength(49);
    expect(retries.map((r) => r.reason)).toEqual(['end']);
  });
});

describe('connectEventStream: abort and close', () => {
  it('ends a pending read cleanly on abort, closes the socket and leaves no timer', async () => {
    const srv = await serve(({ res }) => {
      openStream(res);
      res.write(logEvent(1, 'a'));
    });
    const before = timeouts();
    const controller = new AbortController();
    const connection = connectEventStream(srv.url, { ...fast, idleTimeout: 60_000, signal: controller.signal });
    expect(message((await connection.next()).value as SseEvent)).toBe('a');
    const pending = connection.next();
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    await srv.waitForClosedSockets(1);
    expect(timeouts()).toBeLessThanOrEqual(before);
    expect(connection.lastEventId).toBe('1');
    expect(await connection.next()).toEqual({ done: true, value: undefined });
  });

  it('ends at once when aborted as a long reconnect wait begins, leaving no timer', async () => {
    fakeTime();
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 503 }));
    const controller = new AbortController();
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch,
      retryDelay: 60_000,
      signal: controller.signal,
      onRetry: () => controller.abort(),
    });
    // No fake time passes: a wait that began regardless would never end and the test would time out.
    expect(await collect(connection)).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends when aborted during a long reconnect wait', async () => {
    fakeTime();
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 503 }));
    const controller = new AbortController();
    const connection = connectEventStream(URL_, { ...fast, fetch, retryDelay: 60_000, signal: controller.signal });
    const events = collect(connection);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(1);
    controller.abort();
    expect(await events).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('streams sharing one signal add no listener each to it (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const bodies = Array.from({ length: 20 }, () => manualBody());
      const streams = bodies.map((body) =>
        connectEventStream(URL_, {
          ...fast,
          signal: controller.signal,
          fetch: fakeFetch(() => sseResponse(body.body)).fetch,
        }),
      );
      const pending = streams.map((stream) => stream.next());
      for (const body of bodies) body.push(logEvent(1, 'a'));
      await Promise.all(pending);
      // Node emits the warning on a later tick; by the next macrotask it has been emitted.
      await new Promise((resolve) => setImmediate(resolve));
      const ends = streams.map((stream) => stream.next());
      controller.abort();
      expect(await Promise.all(ends)).toEqual(streams.map(() => ({ done: true, value: undefined })));
      expect(bodies.every((body) => body.cancelled)).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('keeps one abort listener across reconnects, and none once closed', async () => {
    const listeners = countAbortListeners();
    try {
      const controller = new AbortController();
      // Each connection sends one event and ends: every event after the first comes over a reconnect.
      const { fetch, calls } = fakeFetch((index) => sseResponse(logEvent(index + 1, `m${index}`)));
      const stream = connectEventStream(URL_, { ...fast, fetch, signal: controller.signal });
      const seen: number[] = [];
      for (let n = 1; n <= 6; n++) {
        const result = await stream.next();
        expect(result.done).toBe(false);
        seen.push(listeners.live());
      }
      expect(calls.length).toBeGreaterThanOrEqual(6);
      expect(seen).toEqual([1, 1, 1, 1, 1, 1]);
      expect(listeners.added()).toBe(1);
      await stream.close();
      expect(listeners.live()).toBe(0);
    } finally {
      listeners.restore();
    }
  });

  it('makes no request when the signal is already aborted', async () => {
    const srv = await serve(({ res }) => void res.writeHead(204).end());
    expect(await collect(connectEventStream(srv.url, { ...fast, signal: AbortSignal.abort() }))).toEqual([]);
    expect(srv.requests).toHaveLength(0);
  });

  it('closes the connection when the loop is left early', async () => {
    const srv = await serve(({ res }) => {
      openStream(res);
      res.write(`${logEvent(1, 'a')}${logEvent(2, 'b')}`);
    });
    const connection = connectEventStream(srv.url, fast);
    for await (const event of connection) {
      expect(message(event)).toBe('a');
      break;
    }
    await srv.waitForClosedSockets(1);
    expect(connection.lastEventId).toBe('1');
  });

  it('close() while waiting for data ends a pending next()', async () => {
    const srv = await serve(({ res }) => openStream(res));
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const connection = connectEventStream(srv.url, { ...fast, onOpen: () => opened() });
    const pending = connection.next();
    await open;
    await connection.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    await srv.waitForClosedSockets(1);
  });
});

describe('connectEventStream: limits', () => {
  it('passes a 1 MiB data line with default limits', async () => {
    const line = 'x'.repeat(1024 * 1024);
    const srv = await serve(({ res, index }) => {
      if (index > 0) return void res.writeHead(204).end();
      openStream(res);
      res.end(`data: ${line}\n\n`);
    });
    const events = await collect(connectEventStream(srv.url, fast));
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toBe(line);
  });

  it('fails with line-too-long, delivers what came before and releases the connection', async () => {
    const srv = await serve(({ res }) => {
      openStream(res);
      res.write(`${logEvent(1, 'fine')}data: ${'y'.repeat(5000)}`); // the server keeps the stream open
    });
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const event of connectEventStream(srv.url, { ...fast, maxLineBytes: 1000 }))
          seen.push(message(event));
      })(),
    );
    expect(seen).toEqual(['fine']);
    expect(error).toMatchObject({ type: 'line-too-long', limit: 1000 });
    await srv.waitForClosedSockets(1);
    expect(srv.requests).toHaveLength(1);
  });

  it('fails with event-too-large', async () => {
    const srv = await serve(({ res }) => {
      openStream(res);
      res.write(`data: ${'a'.repeat(600)}\ndata: ${'b'.repeat(600)}\n\n`);
    });
    const error = await failure(collect(connectEventStream(srv.url, { ...fast, maxEventBytes: 1000 })));
    expect(error).toMatchObject({ type: 'event-too-large', limit: 1000 });
    await srv.waitForClosedSockets(1);
  });
});

describe('connectEventStream: options', () => {
  it('passes requestInit through and uses the injected fetch', async () => {
    const inits: RequestInit[] = [];
    const connection = connectEventStream('https://example.invalid/stream', {
      ...fast,
      requestInit: { credentials: 'include' },
      fetch: async (_input, init) => {
        inits.push(init);
        return new Response(null, { status: 204 });
      },
    });
    expect(await collect(connection)).toEqual([]);
    expect(inits[0]).toMatchObject({ method: 'GET', credentials: 'include' });
    expect(new Headers(inits[0]!.headers).get('accept')).toBe('text/event-stream');
  });

  it('propagates an error thrown by the headers function', async () => {
    const boom = new Error('token refresh failed');
    const connection = connectEventStream('https://example.invalid/stream', {
      ...fast,
      headers: () => {
        throw boom;
      },
      fetch: async () => new Response(null, { status: 204 }),
    });
    await expect(collect(connection)).rejects.toBe(boom);
  });
});

describe('connectEventStream: defaults and edge cases', () => {
  it('backs off from 1 s doubling up to 30 s with 20 % jitter by default', async () => {
    fakeTime();
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 503 }));
    const retries: RetryInfo[] = [];
    const error = await failure(
      settle(
        collect(connectEventStream(URL_, { fetch, maxRetries: 6, random: () => 0.5, onRetry: (r) => retries.push(r) })),
      ),
    );
    expect(retries.map((r) => r.delay)).toEqual([1100, 2200, 4400, 8800, 17_600, 33_000]);
    expect(error).toMatchObject({ type: 'retries-exhausted', attempts: 6, status: 503 });
    expect(error.message).toBe('Gave up after 6 reconnect attempts');
    expect(calls).toHaveLength(7);
  });

  it('caps the backoff at maxRetryDelay', async () => {
    fakeTime();
    const { fetch } = fakeFetch(() => new Response(null, { status: 503 }));
    const retries: RetryInfo[] = [];
    await failure(
      settle(
        collect(
          connectEventStream(URL_, {
            fetch,
            retryDelay: 100,
            retryJitter: 0,
            maxRetryDelay: 250,
            maxRetries: 4,
            onRetry: (r) => retries.push(r),
          }),
        ),
      ),
    );
    expect(retries.map((r) => r.delay)).toEqual([100, 200, 250, 250]);
  });

  it('drops a stalled connection after 60 s by default', async () => {
    fakeTime();
    const stalled = manualBody();
    const { fetch, calls } = fakeFetch((index) =>
      index === 0 ? sseResponse(stalled.body) : new Response(null, { status: 204 }),
    );
    const retries: RetryInfo[] = [];
    const done = collect(
      connectEventStream(URL_, { ...fast, idleTimeout: undefined, fetch, onRetry: (r) => retries.push(r) }),
    );
    await vi.advanceTimersByTimeAsync(59_999);
    expect(stalled.cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(stalled.cancelled).toBe(true);
    await settle(done);
    expect(retries.map((r) => r.reason)).toEqual(['idle-timeout']);
    expect(retries[0]!.error).toMatchObject({ message: 'No data received for 60000 ms' });
    expect(calls).toHaveLength(2);
  });

  it('never times out with idleTimeout: 0', async () => {
    fakeTime();
    const body = manualBody();
    const { fetch, calls } = fakeFetch((index) =>
      index === 0 ? sseResponse(body.body) : new Response(null, { status: 204 }),
    );
    const retries: RetryInfo[] = [];
    const connection = connectEventStream(URL_, { ...fast, fetch, idleTimeout: 0, onRetry: (r) => retries.push(r) });
    const events = collect(connection);
    await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000);
    expect(body.cancelled).toBe(false);
    expect(calls).toHaveLength(1);
    body.push(logEvent(1, 'still here'));
    body.end();
    expect((await settle(events)).map(message)).toEqual(['still here']);
    expect(retries.map((r) => r.reason)).toEqual(['end']);
  });

  it('keeps a caller’s Accept header, and sets Cache-Control and Last-Event-ID itself', async () => {
    const { fetch, calls } = fakeFetch((index) =>
      index === 0 ? sseResponse(logEvent(1, 'a')) : new Response(null, { status: 204 }),
    );
    await collect(
      connectEventStream(URL_, {
        ...fast,
        fetch,
        headers: { Accept: 'text/event-stream, application/json', 'Cache-Control': 'max-age=5', 'Last-Event-ID': 'x' },
      }),
    );
    expect(calls.map((c) => c.headers.get('accept'))).toEqual([
      'text/event-stream, application/json',
      'text/event-stream, application/json',
    ]);
    expect(calls.map((c) => c.headers.get('cache-control'))).toEqual(['no-cache', 'no-cache']);
    expect(calls.map((c) => c.headers.get('last-event-id'))).toEqual([null, '1']);
  });

  it('reconnects after a 200 without a body, as after an empty stream', async () => {
    const { fetch, calls } = fakeFetch((index) => {
      if (index === 0) return new Response(null, { status: 200, headers: { 'content-type': 'text/event-stream' } });
      if (index === 1) return sseResponse(logEvent(1, 'a'));
      return new Response(null, { status: 204 });
    });
    const retries: RetryInfo[] = [];
    const opens: number[] = [];
    const events = await collect(
      connectEventStream(URL_, {
        ...fast,
        fetch,
        onRetry: (r) => retries.push(r),
        onOpen: ({ attempt }) => opens.push(attempt),
      }),
    );
    expect(events.map(message)).toEqual(['a']);
    expect(retries.map((r) => [r.reason, r.attempt])).toEqual([
      ['end', 1],
      ['end', 1],
    ]);
    expect(opens).toEqual([1]);
    expect(calls).toHaveLength(3);
  });

  it('delivers an event without an id: line after a reconnect, though it inherits a delivered ID', async () => {
    const { fetch } = fakeFetch((index) => {
      if (index === 0) return sseResponse(logEvent(1, 'a'));
      if (index === 1) return sseResponse(`${logEvent(undefined, 'new, no id')}${logEvent(2, 'b')}`);
      return new Response(null, { status: 204 });
    });
    const events = await collect(connectEventStream(URL_, { ...fast, fetch }));
    expect(events.map(message)).toEqual(['a', 'new, no id', 'b']);
    expect(events.map((e) => e.id)).toEqual(['1', '1', '2']);
  });

  it('after a replay ends, delivers later events even when their IDs were seen long before', async () => {
    const { fetch } = fakeFetch((index) => {
      if (index === 0) return sseResponse(`${logEvent(1, 'a')}${logEvent(2, 'b')}`);
      // A replay of 2, then a new event 3, then a server that reuses ID 1 for a new event.
      if (index === 1) return sseResponse(`${logEvent(2, 'b')}${logEvent(3, 'c')}${logEvent(1, 'reused')}`);
      return new Response(null, { status: 204 });
    });
    const events = await collect(connectEventStream(URL_, { ...fast, fetch }));
    expect(events.map(message)).toEqual(['a', 'b', 'c', 'reused']);
  });
});

describe('connectEventStream: races and timers', () => {
  it('starts each reconnect outside a replay run: an ID-less first event is delivered', async () => {
    const { fetch } = fakeFetch((index) => {
      if (index === 0) return sseResponse(`${logEvent(1, 'a')}${logEvent(2, 'b')}`);
      // A replay of 2 that is cut off, so the next connection opens inside no run.
      if (index === 1) return sseResponse(logEvent(2, 'b'));
      if (index === 2) return sseResponse(`${logEvent(undefined, 'fresh')}${logEvent(3, 'c')}`);
      return new Response(null, { status: 204 });
    });
    const events = await collect(connectEventStream(URL_, { ...fast, fetch }));
    expect(events.map(message)).toEqual(['a', 'b', 'fresh', 'c']);
  });

  it('cancels the body of a retried status unread', async () => {
    const bodies = [manualBody(), manualBody()];
    const { fetch } = fakeFetch((index) =>
      index < 2 ? new Response(bodies[index]!.body, { status: 503 }) : new Response(null, { status: 204 }),
    );
    expect(await collect(connectEventStream(URL_, { ...fast, fetch }))).toEqual([]);
    expect(bodies.map((b) => b.cancelled)).toEqual([true, true]);
  });

  it('aborts the request of a connection once it is dropped', async () => {
    const { fetch, calls } = fakeFetch((index) =>
      index === 0 ? sseResponse(logEvent(1, 'a')) : new Response(null, { status: 204 }),
    );
    await collect(connectEventStream(URL_, { ...fast, fetch }));
    expect(calls.map((c) => c.signal.aborted)).toEqual([true, true]);
  });

  it('makes no request when closed while the headers function runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let called!: () => void;
    const headersCalled = new Promise<void>((resolve) => {
      called = resolve;
    });
    const { fetch, calls } = fakeFetch(() => sseResponse(logEvent(1, 'a')));
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch,
      headers: async () => {
        called();
        await gate;
        return {};
      },
    });
    const pending = connection.next();
    await headersCalled;
    await connection.close();
    release();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(calls).toHaveLength(0);
  });

  it('cancels a response that arrives after close()', async () => {
    const body = manualBody();
    let answer!: (response: Response) => void;
    let fetched!: () => void;
    const requested = new Promise<void>((resolve) => {
      fetched = resolve;
    });
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch: () => {
        fetched();
        return new Promise<Response>((resolve) => {
          answer = resolve;
        });
      },
    });
    const pending = connection.next();
    await requested;
    await connection.close();
    answer(sseResponse(body.body));
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(body.cancelled).toBe(true);
  });

  it('ends a pending next() quietly when closed while the request is out, whatever maxRetries', async () => {
    let fetched!: () => void;
    const requested = new Promise<void>((resolve) => {
      fetched = resolve;
    });
    const { fetch } = fakeFetch(() => {
      fetched();
      return undefined; // rejects with the abort reason once aborted
    });
    const changes: string[] = [];
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch,
      maxRetries: 0,
      onStateChange: (change) => changes.push(change.state),
    });
    const pending = connection.next();
    await requested;
    await connection.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(changes).toEqual(['connecting', 'ended']);
  });

  it('hands out nothing that a read brought in as close() was called', async () => {
    const body = manualBody();
    const connection = connectEventStream(URL_, { ...fast, fetch: fakeFetch(() => sseResponse(body.body)).fetch });
    const pending = connection.next();
    // Let the connection open and its first read wait for bytes.
    await new Promise((resolve) => setImmediate(resolve));
    body.push(logEvent(1, 'too late'));
    void connection.close();
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it('never takes an event with an empty id: for a replay', async () => {
    const hello = 'id\ndata: {"message":"hello"}\n\n';
    const { fetch } = fakeFetch((index) => {
      if (index === 0) return sseResponse(`${hello}${logEvent(1, 'a')}`);
      if (index === 1) return sseResponse(hello);
      return new Response(null, { status: 204 });
    });
    const events = await collect(connectEventStream(URL_, { ...fast, fetch }));
    expect(events.map(message)).toEqual(['hello', 'a', 'hello']);
  });

  it('fills the dedupe window with events that have their own ID only', async () => {
    const { fetch } = fakeFetch((index) => {
      if (index === 0) return sseResponse(`${logEvent(1, 'a')}${logEvent(undefined, 'x')}${logEvent(2, 'b')}`);
      if (index === 1) return sseResponse(`${logEvent(1, 'a')}${logEvent(2, 'b')}${logEvent(3, 'c')}`);
      return new Response(null, { status: 204 });
    });
    const events = await collect(connectEventStream(URL_, { ...fast, fetch, dedupeWindow: 2 }));
    expect(events.map(message)).toEqual(['a', 'x', 'b', 'c']);
  });

  it('never times out with an idle timeout setTimeout cannot wait for', async () => {
    fakeTime();
    for (const idleTimeout of [Number.POSITIVE_INFINITY, 2 ** 31 - 1]) {
      const body = manualBody();
      const { fetch, calls } = fakeFetch((index) =>
        index === 0 ? sseResponse(body.body) : new Response(null, { status: 204 }),
      );
      const events = collect(connectEventStream(URL_, { ...fast, fetch, idleTimeout }));
      await vi.advanceTimersByTimeAsync(2 ** 31);
      expect(body.cancelled).toBe(false);
      body.push(logEvent(1, 'late'));
      body.end();
      expect((await settle(events)).map(message)).toEqual(['late']);
      expect(calls).toHaveLength(2);
    }
  });

  it('counts idle time from the open, then from the last bytes received', async () => {
    fakeTime();
    const body = manualBody();
    const { fetch, calls } = fakeFetch((index) => {
      if (index === 0) return undefined;
      return new Response(null, { status: 204 });
    });
    // The first answer takes 100 ms to come.
    const slowFetch: ConnectEventStreamOptions['fetch'] = (input, init) =>
      calls.length === 0
        ? new Promise((resolve) => {
            void fetch(input, init).catch(() => {});
            setTimeout(() => resolve(sseResponse(body.body)), 100);
          })
        : fetch(input, init);
    const retries: RetryInfo[] = [];
    const events = collect(
      connectEventStream(URL_, { ...fast, fetch: slowFetch, idleTimeout: 150, onRetry: (r) => retries.push(r) }),
    );
    // Open at 100: idle until 250.
    await vi.advanceTimersByTimeAsync(249);
    expect(body.cancelled).toBe(false);
    // Bytes at 249: idle until 399.
    body.push(': ping\n\n');
    await vi.advanceTimersByTimeAsync(149);
    expect(body.cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(body.cancelled).toBe(true);
    await settle(events);
    expect(retries.map((r) => r.reason)).toEqual(['idle-timeout']);
  });

  it('reports the idle timeout of a request that never got an answer as itself, not wrapped', async () => {
    fakeTime();
    const { fetch } = fakeFetch((index) => (index === 0 ? undefined : new Response(null, { status: 204 })));
    const retries: RetryInfo[] = [];
    await settle(
      collect(connectEventStream(URL_, { ...fast, fetch, idleTimeout: 100, onRetry: (r) => retries.push(r) })),
    );
    const error = retries[0]!.error as SseError;
    expect(error).toMatchObject({ type: 'idle-timeout', message: 'No data received for 100 ms' });
    expect(error.cause).toBeUndefined();
  });

  it('takes an empty id: line after a reconnect for a reset, not for a replay', async () => {
    const { fetch, calls } = fakeFetch((index) => {
      if (index === 0) return sseResponse(`${logEvent(1, 'a')}id\ndata: {"message":"reset"}\n\n`);
      if (index === 1) return sseResponse('id\ndata: {"message":"reset again"}\n\n');
      return new Response(null, { status: 204 });
    });
    const events = await collect(connectEventStream(URL_, { ...fast, fetch }));
    expect(events.map(message)).toEqual(['a', 'reset', 'reset again']);
    expect(calls[1]!.headers.get('last-event-id')).toBeNull();
  });

  it('remembers only IDs the server sent, not one an ID-less event inherited from a resumed position', async () => {
    const { fetch } = fakeFetch((index) => {
      if (index === 0) return sseResponse(logEvent(undefined, 'a'));
      if (index === 1) return sseResponse(logEvent(7, 'first with its own id'));
      return new Response(null, { status: 204 });
    });
    const events = await collect(connectEventStream(URL_, { ...fast, fetch, lastEventId: '7' }));
    expect(events.map(message)).toEqual(['a', 'first with its own id']);
  });

  it('keeps what a fetch that ignores the abort reason rejected with as the idle timeout’s cause', async () => {
    fakeTime();
    const aborted = new DOMException('The operation was aborted', 'AbortError');
    let first = true;
    const retries: RetryInfo[] = [];
    await settle(
      collect(
        connectEventStream(URL_, {
          ...fast,
          idleTimeout: 100,
          onRetry: (r) => retries.push(r),
          fetch: (_input, init) => {
            if (!first) return Promise.resolve(new Response(null, { status: 204 }));
            first = false;
            return new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(aborted)));
          },
        }),
      ),
    );
    expect(retries[0]!.error).toMatchObject({ type: 'idle-timeout', cause: aborted });
  });
});

describe('connectEventStream: hostile servers', () => {
  it('counts a connection that opens and stalls before its first event as a failed attempt, and gives up', async () => {
    fakeTime();
    // Headers, then nothing, every time: each open used to reset the count, so it never ended.
    const { fetch, calls } = fakeFetch(() => sseResponse(manualBody().body));
    const retries: RetryInfo[] = [];
    const error = await failure(
      settle(
        collect(
          connectEventStream(URL_, {
            ...fast,
            fetch,
            idleTimeout: 100,
            maxRetries: 2,
            reconnectOnEnd: false,
            onRetry: (r) => retries.push(r),
          }),
        ),
      ),
    );
    expect(error).toMatchObject({ type: 'retries-exhausted', attempts: 2 });
    expect(error.cause).toMatchObject({ type: 'idle-timeout' });
    expect(calls).toHaveLength(3);
    expect(retries.map((r) => [r.attempt, r.reason])).toEqual([
      [1, 'idle-timeout'],
      [2, 'idle-timeout'],
    ]);
  });

  it('a connection that delivered an event before stalling still resets the count', async () => {
    fakeTime();
    const { fetch, calls } = fakeFetch((index) => {
      const body = manualBody();
      if (index < 4) body.push(logEvent(index + 1, `event ${index + 1}`));
      return sseResponse(body.body);
    });
    const error = await failure(
      settle(collect(connectEventStream(URL_, { ...fast, fetch, idleTimeout: 100, maxRetries: 1 }))),
    );
    // Four connections each deliver an event and stall, each resetting the count; the fifth (the
    // one retry allowed after the fourth) delivers nothing and stalls: no retry is left.
    expect(error).toMatchObject({ type: 'retries-exhausted', attempts: 1 });
    expect(calls).toHaveLength(5);
  });

  it('delivers a new event that reuses a delivered ID with other data (a restarted server), drops a true replay', async () => {
    const { fetch } = fakeFetch((index) => {
      if (index === 0) return sseResponse(`${logEvent(1, 'a')}${logEvent(2, 'b')}`);
      // Restarted with its counter at 1: a replay of 2 first, then new events under old IDs.
      if (index === 1) return sseResponse(`${logEvent(2, 'b')}${logEvent(1, 'new a')}${logEvent(2, 'new b')}`);
      return new Response(null, { status: 204 });
    });
    const events = await collect(connectEventStream(URL_, { ...fast, fetch }));
    expect(events.map(message)).toEqual(['a', 'b', 'new a', 'new b']);
  });

  it('a restarted server whose first event reuses a delivered ID loses nothing', async () => {
    const { fetch } = fakeFetch((index) => {
      if (index === 0) return sseResponse(`${logEvent(1, 'a')}${logEvent(2, 'b')}${logEvent(3, 'c')}`);
      if (index === 1) return sseResponse(`${logEvent(1, 'x')}${logEvent(2, 'y')}${logEvent(3, 'z')}`);
      return new Response(null, { status: 204 });
    });
    const events = await collect(connectEventStream(URL_, { ...fast, fetch }));
    expect(events.map(message)).toEqual(['a', 'b', 'c', 'x', 'y', 'z']);
  });
});

describe('connectEventStream: an attempt succeeds only when an event arrives', () => {
  // Each answers 200 text/event-stream and then delivers no event.
  const noEvent: Array<[string, Handler]> = [
    [
      'drops before any byte',
      ({ res }) => {
        openStream(res);
        res.destroy();
      },
    ],
    [
      'sends a comment only, then drops',
      ({ res }) => {
        openStream(res);
        res.write(': hi\n\n', () => res.destroy());
      },
    ],
    [
      'sends an invalid gzip body',
      ({ res }) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Content-Encoding': 'gzip' });
        res.end('not gzip at all');
      },
    ],
  ];

  it.each(noEvent)('a server that %s exhausts maxRetries: 1 after 2 requests', async (_name, handler) => {
    const srv = await serve(handler);
    const retries: RetryInfo[] = [];
    const error = await failure(
      collect(connectEventStream(srv.url, { ...fast, maxRetries: 1, onRetry: (r) => retries.push(r) })),
    );
    expect(error).toMatchObject({ type: 'retries-exhausted', attempts: 1 });
    expect(retries.map((r) => [r.attempt, r.reason])).toEqual([[1, 'network']]);
    expect(srv.requests).toHaveLength(2);
  });

  it('a server that ends every stream empty ends the iteration after maxRetries reconnects (reconnectOnEnd)', async () => {
    const srv = await serve(({ res }) => {
      openStream(res);
      res.end();
    });
    const retries: RetryInfo[] = [];
    const connection = connectEventStream(srv.url, { ...fast, maxRetries: 2, onRetry: (r) => retries.push(r) });
    expect(await collect(connection)).toEqual([]);
    expect(retries.map((r) => [r.attempt, r.reason])).toEqual([
      [1, 'end'],
      [2, 'end'],
    ]);
    expect(srv.requests).toHaveLength(3);
  });

  it('a replay dropped as a duplicate is no event: a server that only replays gives up', async () => {
    const { fetch, calls } = fakeFetch(() => sseResponse(logEvent(1, 'a')));
    const events = await collect(connectEventStream(URL_, { ...fast, fetch, maxRetries: 2 }));
    expect(events.map(message)).toEqual(['a']);
    // The first connection delivered; then 2 reconnects that only replay, and the count runs out.
    expect(calls).toHaveLength(3);
  });
});

describe('connectEventStream: onStateChange', () => {
  it('reports each state with the attempt, streaming only once an event arrived', async () => {
    const { fetch } = fakeFetch((index) => {
      if (index === 0) return sseResponse(scriptedBody([logEvent(1, 'a'), logEvent(2, 'a2')], 'drop'));
      if (index === 1) return new Response(null, { status: 503 });
      if (index === 2) return sseResponse(scriptedBody([': only a comment\n\n'], 'drop'));
      if (index === 3) return sseResponse(logEvent(3, 'b'));
      return new Response(null, { status: 204 });
    });
    const changes: string[] = [];
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch,
      onStateChange: (change) =>
        changes.push(`${change.state} ${change.attempt}${change.state === 'waiting' ? ` ${change.reason}` : ''}`),
    });
    // Two chunks of events on the first connection: it is streaming once.
    expect((await collect(connection)).map(message)).toEqual(['a', 'a2', 'b']);
    expect(changes).toEqual([
      'connecting 0',
      'open 0',
      'streaming 0',
      'waiting 1 network',
      'connecting 1',
      'waiting 2 status',
      'connecting 2',
      'open 2',
      'waiting 3 network',
      'connecting 3',
      'open 3',
      'streaming 3',
      'waiting 1 end',
      'connecting 1',
      'ended 1',
    ]);
  });

  it('reports ended once, on close()', async () => {
    const body = manualBody();
    const changes: string[] = [];
    const connection = connectEventStream(URL_, {
      ...fast,
      fetch: fakeFetch(() => sseResponse(body.body)).fetch,
      onStateChange: (change) => changes.push(change.state),
    });
    const pending = connection.next();
    body.push(logEvent(1, 'a'));
    await pending;
    await connection.close();
    await connection.close();
    expect(changes).toEqual(['connecting', 'open', 'streaming', 'ended']);
  });
});

/** What a scripted server does with one request. */
type Behaviour =
  | 'drop'
  | 'comment-then-drop'
  | 'empty-end'
  | 'no-body'
  | 'stall'
  | 'no-answer'
  | '503'
  | '429'
  | 'refused'
  | 'replay-then-drop'
  | { events: number; then: 'drop' | 'end' | 'stall' };

const noEventBehaviours: Behaviour[] = [
  'drop',
  'comment-then-drop',
  'empty-end',
  'no-body',
  'stall',
  'no-answer',
  '503',
  '429',
  'refused',
  'replay-then-drop',
];

/** A body that sends `chunks` one per read, then fails, ends or goes silent. */
function scriptedBody(chunks: string[], last: 'drop' | 'end' | 'stall'): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[index++];
        if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
        else if (last === 'drop') controller.error(new TypeError('terminated'));
        else if (last === 'end') controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A fetch answering call n with `script[n]`, then with `rest` for ever (up to a runaway cap, then 204). */
function scriptedFetch(script: readonly Behaviour[], rest: Behaviour | '204', log: string[]): EventStreamFetch {
  let nextId = 1;
  let lastSent: string | undefined;
  let calls = 0;
  return (_input, init) => {
    log.push('call');
    const behaviour = calls > 200 ? '204' : (script[calls] ?? rest);
    calls++;
    const stream = (chunks: string[], last: 'drop' | 'end' | 'stall') => sseResponse(scriptedBody(chunks, last));
    if (typeof behaviour === 'object') {
      const events = Array.from({ length: behaviour.events }, () => logEvent(nextId, `event ${nextId++}`));
      lastSent = events.at(-1) ?? lastSent;
      return Promise.resolve(stream([events.join('')], behaviour.then));
    }
    switch (behaviour) {
      case 'drop':
        return Promise.resolve(stream([], 'drop'));
      case 'comment-then-drop':
        return Promise.resolve(stream([': keep-alive\n\n'], 'drop'));
      case 'empty-end':
        return Promise.resolve(stream([], 'end'));
      case 'no-body':
        return Promise.resolve(new Response(null, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
      case 'stall':
        return Promise.resolve(stream([], 'stall'));
      case '503':
        return Promise.resolve(new Response(null, { status: 503 }));
      case '429':
        return Promise.resolve(new Response(null, { status: 429, headers: { 'retry-after': '1' } }));
      case 'refused':
        return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
      case 'replay-then-drop':
        return Promise.resolve(stream(lastSent === undefined ? [] : [lastSent], 'drop'));
      case '204':
        return Promise.resolve(new Response(null, { status: 204 }));
      case 'no-answer':
        return new Promise((_, reject) => {
          init.signal!.addEventListener('abort', () => reject(init.signal!.reason), { once: true });
        });
    }
  };
}

describe('connectEventStream: reconnect counting, as a property over scripted servers', () => {
  const behaviour = fc.oneof(
    fc.constantFrom(...noEventBehaviours),
    fc.record({ events: fc.integer({ min: 1, max: 3 }), then: fc.constantFrom('drop', 'end', 'stall') }),
  );

  it('between two delivered events there are never more than maxRetries + 1 connections, and the stream ends', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(behaviour, { maxLength: 12 }),
        fc.constantFrom<Behaviour | '204'>(...noEventBehaviours, '204'),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        async (script, rest, maxRetries, reconnectOnEnd) => {
          fakeTime();
          try {
            const log: string[] = [];
            const ids: string[] = [];
            const connection = connectEventStream(URL_, {
              ...fast,
              idleTimeout: 100,
              maxRetries,
              reconnectOnEnd,
              fetch: scriptedFetch(script, rest, log),
            });
            const outcome = (async () => {
              for await (const event of connection) {
                log.push('event');
                ids.push(event.id);
              }
            })().then(
              () => undefined,
              (error: unknown) => error,
            );
            await vi.runAllTimersAsync();
            const error = await outcome;
            if (error !== undefined) expect(error).toMatchObject({ type: 'retries-exhausted' });
            let calls = 0;
            let most = 0;
            for (const entry of log) {
              calls = entry === 'call' ? calls + 1 : 0;
              most = Math.max(most, calls);
            }
            expect(most).toBeLessThanOrEqual(maxRetries + 1);
            // No event twice: a replay is dropped.
            expect(ids.map(Number)).toEqual([...new Set(ids.map(Number))].sort((a, b) => a - b));
          } finally {
            vi.useRealTimers();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
