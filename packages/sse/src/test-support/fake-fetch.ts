import type { EventStreamFetch } from '../connect-event-stream.js';

/** A response body the test writes to by hand; `cancelled` tells whether the reader let go of it. */
export interface ManualBody {
  readonly body: ReadableStream<Uint8Array>;
  push(text: string): void;
  end(): void;
  readonly cancelled: boolean;
}

export function manualBody(): ManualBody {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      cancelled = true;
    },
  });
  return {
    body,
    push: (text) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    get cancelled() {
      return cancelled;
    },
  };
}

/** A 200 `text/event-stream` response with `body` (a string is sent whole, then the body ends). */
export function sseResponse(body: string | ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** What {@link fakeFetch} recorded of one call. */
export interface FakeCall {
  readonly url: string;
  readonly headers: Headers;
  readonly signal: AbortSignal;
}

/**
 * An injected fetch answering call `index` (0-based) with `answer(index, call)`; `undefined`
 * means never answer, like a server that accepted the connection and went silent (the promise
 * rejects with the abort reason when the request's signal aborts, as fetch does).
 */
export function fakeFetch(answer: (index: number, call: FakeCall) => Response | undefined) {
  const calls: FakeCall[] = [];
  const fetch: EventStreamFetch = (input, init) => {
    const call: FakeCall = { url: String(input), headers: new Headers(init.headers), signal: init.signal! };
    calls.push(call);
    const response = answer(calls.length - 1, call);
    if (response !== undefined) return Promise.resolve(response);
    return new Promise((_, reject) => {
      const abort = (): void => reject(call.signal.reason);
      if (call.signal.aborted) abort();
      else call.signal.addEventListener('abort', abort, { once: true });
    });
  };
  return { fetch, calls };
}
