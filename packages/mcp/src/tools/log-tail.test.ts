import { createClient } from '@browser-cloud/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOOL_DEFINITIONS } from '../generated/tool-definitions.js';
import { sortArguments } from '../tool-arguments.js';
import { tailLog } from './log-tail.js';

const TAIL = TOOL_DEFINITIONS.tail_browser_logs;

const encoder = new TextEncoder();

afterEach(() => {
  vi.useRealTimers();
});

/** A client whose fetch answers with these log events, then ends the body or, with `open`, keeps it open. */
function clientServing(messages: string[], options: { open?: boolean } = {}) {
  const requests: Request[] = [];
  /** Settles once the reader has taken every event's bytes and asks for more. */
  let markDrained!: () => void;
  const drained = new Promise<void>((resolve) => {
    markDrained = resolve;
  });
  const client = createClient({
    baseUrl: 'http://sandbox.test',
    token: 'sk_test',
    maxRetries: 0,
    fetch: async (request) => {
      requests.push(request);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          messages.forEach((message, i) => {
            const data = JSON.stringify({ event: 'log', timestamp: '2026-11-22T19:58:03.120Z', message });
            controller.enqueue(encoder.encode(`id: ${i + 1}\nevent: log\ndata: ${data}\n\n`));
          });
          if (!options.open) controller.close();
        },
        pull() {
          markDrained();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    },
  });
  return { client, requests, drained };
}

const call = (client: ReturnType<typeof createClient>, args: Record<string, unknown>, signal?: AbortSignal) =>
  tailLog(
    client,
    TAIL,
    sortArguments(TAIL, { id: 'br_1', source: 'path', path: '/x.log', ...args }),
    signal ?? new AbortController().signal,
  );

describe('the log tail', () => {
  it('cuts an event over the byte budget between characters, never inside a surrogate pair', async () => {
    const { client } = clientServing(['😀'.repeat(2000), 'next']);
    const result = (await call(client, { max_bytes: 1024 })) as { events: Array<{ message: string }> };
    const [event] = result.events;
    expect(result).toMatchObject({ cursor: '1', stopped: 'max_bytes', events: [{ id: '1', truncated: true }] });
    expect(encoder.encode(JSON.stringify(result.events)).byteLength).toBeLessThanOrEqual(1024);
    expect(event?.message).toMatch(/^(😀)+$/u);
  });

  it('sends the cursor as Last-Event-ID', async () => {
    const { client, requests } = clientServing([]);
    await call(client, { cursor: '41' });
    expect(requests[0]?.headers.get('last-event-id')).toBe('41');
    expect(new URL(requests[0]?.url ?? '').searchParams.get('source')).toBe('path');
  });

  it('returns what arrived when the time limit is reached on an open stream', async () => {
    // The time limit fires when the test says, after both events were read: never a race.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client, drained } = clientServing(['a', 'b'], { open: true });
    const pending = call(client, { follow: true, wait_ms: 100 });
    await drained;
    // Handing the read events out takes only promise callbacks, which all run before this.
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(100);
    const result = await pending;
    expect(result).toEqual({
      events: [
        { id: '1', timestamp: '2026-11-22T19:58:03.120Z', message: 'a' },
        { id: '2', timestamp: '2026-11-22T19:58:03.120Z', message: 'b' },
      ],
      cursor: '2',
      stopped: 'time_limit',
    });
  });

  it('stops reading when the MCP request is cancelled', async () => {
    const { client } = clientServing(['a'], { open: true });
    const cancel = new AbortController();
    const pending = call(client, { follow: true, wait_ms: 30_000 }, cancel.signal);
    cancel.abort();
    await expect(pending).resolves.toMatchObject({ stopped: 'time_limit' });
  });
});

describe('the log tail with follow, once lines have arrived', () => {
  it('returns after the quiet period instead of waiting all of wait_ms', async () => {
    const { client } = clientServing(['a', 'b'], { open: true });
    // wait_ms is past the test's own timeout: only the quiet period can end this call in time.
    const result = await call(client, { follow: true, wait_ms: 30_000 });
    expect(result).toMatchObject({ cursor: '2', stopped: 'quiet', events: [{ message: 'a' }, { message: 'b' }] });
  });

  it('without a line, still waits for one until wait_ms', async () => {
    const { client } = clientServing([], { open: true });
    expect(await call(client, { follow: true, wait_ms: 100 })).toEqual({
      events: [],
      cursor: '',
      stopped: 'time_limit',
    });
  });
});

describe('arguments the client refuses', () => {
  it('reject the call and leave no timer behind (one would keep the server process alive for wait_ms)', async () => {
    vi.useFakeTimers();
    const { client, requests } = clientServing([]);
    await expect(call(client, { path: '/x\ud800.log', wait_ms: 30_000 })).rejects.toMatchObject({
      name: 'ValidationError',
      field: 'query.path',
    });
    expect(vi.getTimerCount()).toBe(0);
    expect(requests).toEqual([]);
  });
});
