// A fetch in front of a server that plants one contract bug: it rewrites requests on their way out
// or answers on their way back. The engine's own tests send through it to the sandbox, which keeps
// the contract, and expect the engine to catch the planted bug.

export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  /** By lower-case name. */
  headers: Record<string, string>;
  body: string;
}

export type ProxiedAnswer = { request: ProxiedRequest; status: number; headers: Record<string, string>; body: string };

export interface Fault {
  /** Answers a request itself, without passing it on, when it returns an answer. */
  intercept?: (request: ProxiedRequest) => Omit<ProxiedAnswer, 'request'> | undefined;
  /** Rewrites the request before it reaches the server. */
  request?: (request: ProxiedRequest) => ProxiedRequest;
  /** Rewrites a whole (non-stream) answer. */
  answer?: (answer: ProxiedAnswer) => ProxiedAnswer;
  /** Rewrites an event stream line by line as it passes, and may change its headers. */
  streamLine?: (line: string) => string;
  streamHeaders?: (headers: Record<string, string>) => Record<string, string>;
}

/** An answer's body as a Response takes it: none for an empty one (a 204 may have no body at all). */
const responseOf = ({ status, headers, body }: Omit<ProxiedAnswer, 'request'>) =>
  new Response(body === '' ? null : body, { status, headers });

export function faultyFetch(fault: Fault): typeof fetch {
  return async (input, init) => {
    const sent = new Request(input, init);
    const { origin, pathname, search } = new URL(sent.url);
    const headers = Object.fromEntries(sent.headers);
    const original = { method: sent.method, url: pathname + search, headers, body: await sent.text() };
    const request = fault.request?.(original) ?? original;
    const own = fault.intercept?.(request);
    if (own) return responseOf(own);
    const response = await fetch(`${origin}${request.url}`, {
      method: request.method,
      headers: request.headers,
      body: request.body === '' ? null : request.body,
      signal: sent.signal,
    });
    const answered = Object.fromEntries(response.headers);
    if (!answered['content-type']?.startsWith('text/event-stream') || !response.body) {
      const answer = { request, status: response.status, headers: answered, body: await response.text() };
      return responseOf(fault.answer?.(answer) ?? answer);
    }
    let pending = '';
    const lines = new TransformStream<string, string>({
      transform(chunk, controller) {
        const complete = (pending + chunk).split('\n');
        pending = complete.pop() ?? '';
        controller.enqueue(complete.map((line) => `${fault.streamLine?.(line) ?? line}\n`).join(''));
      },
      flush: (controller) => controller.enqueue(pending),
    });
    const body = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(lines);
    const streamHeaders = fault.streamHeaders?.(answered) ?? answered;
    return new Response(body.pipeThrough(new TextEncoderStream()), { status: response.status, headers: streamHeaders });
  };
}
