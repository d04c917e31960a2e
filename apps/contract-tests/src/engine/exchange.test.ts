import { describe, expect, it } from 'vitest';
import { exchange } from './exchange.js';
import { Broken } from './judge.js';
import type { RequestCase } from './request-case.js';

const streamCase: RequestCase = {
  method: 'GET',
  pathTemplate: '/browsers/{id}/logs/stream',
  pathParams: { id: 'b1' },
  query: { source: 'path', path: '/x', follow: true },
  headers: { Accept: 'text/event-stream' },
  body: undefined,
  withToken: true,
};

/** A fetch whose body sends `chunks`, then stays open until cancelled. */
function openStream(chunks: string[], contentType: string, cancelled: { value: boolean }): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        },
        cancel() {
          cancelled.value = true;
        },
      }),
      { status: 200, headers: { 'content-type': contentType } },
    );
}

describe('exchange', () => {
  it('reads an endless event stream for streamMs, keeps what arrived and cancels it', async () => {
    const cancelled = { value: false };
    const answer = await exchange(
      {
        baseUrl: 'http://h',
        token: 't',
        fetch: openStream(['data: 1\n\n', 'data: 2\n\n'], 'text/event-stream', cancelled),
      },
      streamCase,
      { streamMs: 20 },
    );
    expect(answer.text).toBe('data: 1\n\ndata: 2\n\n');
    expect(cancelled.value).toBe(true);
  });

  it('stops reading an event stream once streamUntil holds, long before streamMs', async () => {
    const cancelled = { value: false };
    const answer = await exchange(
      {
        baseUrl: 'http://h',
        token: 't',
        fetch: openStream(['retry: 50\n\n', 'data: 1\n', '\n'], 'text/event-stream', cancelled),
      },
      streamCase,
      // The test's timeout fails it if the condition is not what ends the read.
      { streamMs: 60_000, streamUntil: (text) => /^data:.*\n\n/m.test(text) },
    );
    expect(answer.text).toBe('retry: 50\n\ndata: 1\n\n');
    expect(cancelled.value).toBe(true);
  });

  it('stops at maxBytes and says the body was cut', async () => {
    const cancelled = { value: false };
    const answer = await exchange(
      {
        baseUrl: 'http://h',
        token: 't',
        fetch: openStream(['x'.repeat(64), 'y'.repeat(64)], 'application/json', cancelled),
      },
      streamCase,
      { maxBytes: 100 },
    );
    expect(answer.truncated).toBe(true);
    expect(answer.text).toHaveLength(100);
    expect(cancelled.value).toBe(true);
  });

  it('sends the token only when the case says so, and never puts it in an error', async () => {
    const seen: (string | null)[] = [];
    const recording: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init).headers.get('authorization'));
      return new Response('{}', { status: 401, headers: { 'content-type': 'application/json' } });
    };
    await exchange({ baseUrl: 'http://h', token: 'sk_secret', fetch: recording }, streamCase);
    await exchange({ baseUrl: 'http://h', token: 'sk_secret', fetch: recording }, { ...streamCase, withToken: false });
    expect(seen).toEqual(['Bearer sk_secret', null]);

    const failing: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    const error = await exchange({ baseUrl: 'http://h', token: 'sk_secret', fetch: failing }, streamCase).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(Broken);
    expect(String(error.message)).not.toContain('sk_secret');
  });
});
