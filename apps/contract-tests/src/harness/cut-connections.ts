/**
 * A `fetch` whose first `connections` event-stream answers pass `events` complete events and a few
 * bytes of the next, then fail as a dropped connection; `lastEventIds` are those each request sent.
 */
export function cuttingFetch(options: { events: number; connections: number }) {
  const lastEventIds: (string | null)[] = [];
  let opened = 0;
  const cutting: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    lastEventIds.push(request.headers.get('last-event-id'));
    const response = await fetch(request);
    if (opened++ >= options.connections || !response.body) return response;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    let cut = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (cut) {
          void reader.cancel();
          return controller.error(new TypeError('terminated: connection reset'));
        }
        const { value, done } = await reader.read();
        if (done) return controller.close();
        const before = seen.length;
        seen += decoder.decode(value, { stream: true });
        // The end of the n-th complete event that carries data (a lone `retry:` block is none).
        const blocks = seen.split('\n\n').slice(0, -1);
        const last = blocks.flatMap((block, i) => (/(^|\n)data:/.test(block) ? [i] : []))[options.events - 1];
        const end = last === undefined ? seen.length : blocks.slice(0, last + 1).join('\n\n').length + 2;
        if (seen.length <= end) return controller.enqueue(value);
        // Erroring discards what was not read yet, so the drop comes one read after the cut.
        controller.enqueue(new TextEncoder().encode(seen.slice(before, end + 3)));
        cut = true;
      },
      cancel: () => reader.cancel(),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: cutting, lastEventIds };
}
