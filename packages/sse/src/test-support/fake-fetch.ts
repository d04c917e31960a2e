import type { EventStreamFetch } from '../connect-event-stream.js';

/** A response body the test writes to by hand; `cancelled` tells whether the reader let go of it. */
export function manualBody() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      cancelled = true;
    },
  });
  return {
    body,
    push: (text: string) => controller.enqueue(encoder.encode(text)),
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

type FakeCall = { readonly url: string; readonly headers: Headers; readonly signal: AbortSignal };

/**
 * An injected fetch answering call `index` (0-based) with `answer(index, call)`; `undefined`
 * means never answer, like a server that accepted the connection and went silent (the promise
 * rejects with the abort reason when the request's signal aborts, as fetch does).
 */
export function fakeFetch(answer: (index: number, call: FakeCall) => Response | undefined) {
  const calls: FakeCall[] = [];
  const fetch: EventStreamFetch = (input, init) => {
    const call = { url: String(input), headers: new Headers(init.headers), signal: init.signal! };
    calls.push(call);
    const response = answer(calls.length - 1, call);
    if (response !== undefined) return Promise.resolve(response);
    return new Promise((_, reject) => {
      if (call.signal.aborted) reject(call.signal.reason);
      else call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true });
    });
  };
  return { fetch, calls };
}
