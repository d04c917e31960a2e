import { errorFromResponse } from './error-body.js';
import { redact, redactCause, redactJson } from './redact.js';

/** A fetch as the client calls an injected one: with one `Request`. */
export type FetchLike = (request: Request) => Promise<Response>;

/** The client's authenticated sending, and the scrubbing that needs the token, bound to it. */
export type Transport = ReturnType<typeof transport>;

/**
 * The token lives in this closure only: nothing the client hands out holds it in any property.
 *
 * Redirects are not followed: a 3xx comes back as it is (in a browser as an opaque redirect) and
 * becomes its APIError. Followed, it would turn a PATCH or POST into a GET (301, 302), and a
 * failure at its target would look like one before sending, so that an answered login was sent again.
 */
export function transport(injected: FetchLike | undefined, token: string) {
  const authorization = `Bearer ${token}`;
  return {
    /**
     * Sends with the bearer token set last, so that no other header can replace it: a `Request`, or
     * (the client's own calls) a URL and an init, which go to the global fetch without building a
     * Request. An injected fetch always receives a Request.
     */
    send(input: Request | string, init?: RequestInit & { headers: Headers }): Promise<Response> {
      (init ?? (input as Request)).headers.set('Authorization', authorization);
      const manual = { ...init, redirect: 'manual' } as const;
      return injected ? injected(new Request(input, manual)) : globalThis.fetch(input, manual);
    },
    /** The APIError of a refused response, from a bounded read of its body, without the token. */
    refusal: (response: Response) => errorFromResponse(response, token),
    /** `cause` rebuilt without the token, for attaching to an error the caller will see. */
    scrub: (cause: unknown) => redactCause(cause, token),
    /** Text of an error built from what the server sent (an event's ID), without the token. */
    redact: (text: string) => redact(text, token),
    /** A JSON value of an error (its issues) without the token, in every string. */
    redactJson: <T>(value: T) => redactJson(value, token),
    /** A parsed answer as handed out: without a token of 16 characters or more (see `redactJson`). */
    redactAnswer: <T>(value: T) => redactJson(value, token, true),
  };
}
