import { errorFromResponse } from './error-body.js';
import { fetchUnredirected } from './global-fetch.js';
import { redactCause, redactJson } from './redact.js';

/** A fetch as the client calls an injected one: with one `Request`. */
export type FetchLike = (request: Request) => Promise<Response>;

/** The client's authenticated sending, and the scrubbing that needs the token, bound to it. */
export type Transport = ReturnType<typeof transport>;

/**
 * The token lives in this closure only: nothing the client hands out holds it in any property.
 *
 * Redirects are not followed: a 3xx comes back as it is (in a browser as an opaque redirect; see
 * `fetchUnredirected` for a request with a body on Node) and becomes its APIError. Followed, it
 * would turn a PATCH or POST into a GET (301, 302), and a failure at its target would look like
 * one before sending, so that an answered login was sent again.
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
      return fetchUnredirected(input, init, injected);
    },
    /** The APIError of a refused response, from a bounded read of its body, without the token. */
    refusal: (response: Response) => errorFromResponse(response, token),
    /** `cause` rebuilt without the token, for attaching to an error the caller will see. */
    scrub: (cause: unknown) => redactCause(cause, token),
    /** A JSON value of an error (its issues, or its text, built from what the server sent) without the token, in every string. */
    redactJson: <T>(value: T) => redactJson(value, token),
    /** A parsed answer as handed out: without a token of 16 characters or more (see `redactJson`). */
    redactAnswer: <T>(value: T) => redactJson(value, token, true),
  };
}
