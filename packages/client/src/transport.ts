import { errorFromResponse } from './error-body.js';
import type { APIError } from './errors.js';
import { redactCause } from './redact.js';

/** A fetch as openapi-fetch calls it: with one `Request`. */
export type FetchLike = (request: Request) => Promise<Response>;

/**
 * What openapi-fetch builds for the client's own operations instead of a `Request`: the URL
 * and the init, unprocessed. openapi-fetch lets a call choose its `Request` class; constructing
 * a real Request and then having fetch copy it again cost about a third of a local round trip,
 * while `fetch(url, init)` does the work once. It has what openapi-fetch, its middleware and the
 * transport touch: `url`, `method`, a mutable `headers`, `body`, `signal`.
 */
export class PendingRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyInit | null | undefined;
  readonly signal: AbortSignal | null | undefined;
  readonly redirect: RequestRedirect | undefined;

  constructor(url: string, init: RequestInit = {}) {
    this.url = url;
    this.method = init.method ?? 'GET';
    // openapi-fetch hands over a Headers it built for this request: use it, do not copy it.
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body;
    this.signal = init.signal;
    this.redirect = init.redirect;
  }

  /** The init for `fetch(url, init)`, with the headers as openapi-fetch and its middleware left them. */
  init(): RequestInit {
    return {
      method: this.method,
      headers: this.headers,
      body: this.body ?? null,
      signal: this.signal ?? null,
      redirect: this.redirect ?? 'follow',
    };
  }
}

/** The client's authenticated sending, and the scrubbing that needs the token, bound to it. */
export interface Transport {
  /** Sends what openapi-fetch (or the log stream) built, with the bearer token set last. */
  send(request: Request | PendingRequest): Promise<Response>;
  /** The APIError of a refused response, from a bounded read of its body, without the token. */
  refusal(response: Response): Promise<APIError>;
  /** `cause` rebuilt without the token, for attaching to an error the caller will see. */
  scrub(cause: unknown): unknown;
}

/**
 * The token lives in this closure only: nothing the client hands out (the client, a stream, an
 * error, a cause) holds it in any property, so no inspection or serialisation can print it.
 *
 * `send` sets the token last, so no client, per-call or middleware header can replace it. A
 * {@link PendingRequest} goes to the global fetch as `(url, init)`, or becomes a real Request for
 * an injected fetch, which always receives one. Setting the token here rather than in an
 * openapi-fetch middleware spares every call openapi-fetch's middleware round (an id, a frozen
 * options object, an await).
 */
export function transport(injected: FetchLike | undefined, token: string): Transport {
  const authorization = `Bearer ${token}`;
  return {
    send(request) {
      request.headers.set('Authorization', authorization);
      if (!(request instanceof PendingRequest)) return injected ? injected(request) : globalThis.fetch(request);
      return injected
        ? injected(new Request(request.url, request.init()))
        : globalThis.fetch(request.url, request.init());
    },
    refusal: (response) => errorFromResponse(response, token),
    scrub: (cause) => redactCause(cause, token),
  };
}
