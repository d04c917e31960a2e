import { errorFromResponse } from './error-body.js';
import type { APIError } from './errors.js';
import { redact, redactAnswer, redactCause, redactJson } from './redact.js';

/** A fetch as the client calls an injected one: with one `Request`. */
export type FetchLike = (request: Request) => Promise<Response>;

/** The client's authenticated sending, and the scrubbing that needs the token, bound to it. */
export interface Transport {
  /**
   * Sends with the bearer token set last: a `Request` (what the raw openapi-fetch client and its
   * middleware build), or a URL and an init whose `headers` is a Headers (the client's own calls).
   */
  send(input: Request | string, init?: RequestInit & { headers: Headers }): Promise<Response>;
  /** The APIError of a refused response, from a bounded read of its body, without the token. */
  refusal(response: Response): Promise<APIError>;
  /** `cause` rebuilt without the token, for attaching to an error the caller will see. */
  scrub(cause: unknown): unknown;
  /** Text of an error built from what the server sent (an event's ID), without the token. */
  redact(text: string): string;
  /** A JSON value of an error (its issues) without the token, in every string. */
  redactJson<T>(value: T): T;
  /**
   * A parsed answer (a Profile, a log event, an event ID) as handed out: without a token of
   * `MIN_SECRET_LENGTH` (16) characters or more; a shorter one is left in (see `redactAnswer`).
   */
  redactAnswer<T>(value: T): T;
}

/**
 * The token lives in this closure only: nothing the client hands out (the client, a stream, an
 * error, a cause) holds it in any property, so no inspection or serialisation can print it.
 *
 * `send` sets the token last, so no client, per-call or middleware header can replace it. A URL
 * and init go to the global fetch as they are, doing the work of a Request once, or become a
 * real Request for an injected fetch, which always receives one.
 *
 * Nothing is sent with fetch's default `redirect: 'follow'`: a 3xx comes back as it is (in a
 * browser as an opaque redirect) and becomes its APIError. Followed, a redirect would turn a
 * PATCH or POST into a GET (301, 302), and a failure at its target would look like a connection
 * error before sending, so that a login the origin had answered was sent again.
 */
export function transport(injected: FetchLike | undefined, token: string): Transport {
  const authorization = `Bearer ${token}`;
  return {
    send(input, init) {
      (init ?? (input as Request)).headers.set('Authorization', authorization);
      if (typeof input !== 'string') {
        const request = new Request(input, { redirect: 'manual' });
        return injected ? injected(request) : globalThis.fetch(request);
      }
      const manual = { ...init, redirect: 'manual' } as const;
      return injected ? injected(new Request(input, manual)) : globalThis.fetch(input, manual);
    },
    refusal: (response) => errorFromResponse(response, token),
    scrub: (cause) => redactCause(cause, token),
    redact: (text) => redact(text, token),
    redactJson: (value) => redactJson(value, token),
    redactAnswer: (value) => redactAnswer(value, token),
  };
}
