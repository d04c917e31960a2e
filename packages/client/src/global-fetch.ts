import { redirectError } from './error-body.js';
import { fetchUnredirected as manualFetch } from './manual-fetch.js';
import type { FetchLike } from './transport.js';

/**
 * Whether the global fetch is undici's, Node's. Before it sends a request with a body, undici
 * copies the body (a tee of its stream), to send it again after a redirect, unless the request
 * follows none and has no window (Fetch, "HTTP-network-or-cache fetch", step 8): on Node 20 the
 * copy is most of what a call costs beyond a bare fetch.
 * @see https://fetch.spec.whatwg.org/#concept-http-network-or-cache-fetch
 */
const undici = !!(globalThis as { process?: { versions?: { undici?: string } } }).process?.versions?.undici;

/**
 * Sends without following a redirect, as `manual-fetch.ts` does, but a request with a body through
 * Node's own fetch goes with `redirect: 'error'` instead, which spares the copy. undici then
 * refuses a redirect without saying its status or where it leads, and the call rejects with the
 * APIError of a redirect of status 0, as for a browser's opaque redirect.
 */
export function fetchUnredirected(
  input: Request | string,
  init?: RequestInit,
  injected?: FetchLike,
): Promise<Response> {
  if (injected || !undici || !init?.body) return manualFetch(input, init, injected);
  return globalThis.fetch(input, { ...init, redirect: 'error', window: null }).catch((cause: Error | undefined) => {
    throw (cause?.cause as Error | undefined)?.message === 'unexpected redirect'
      ? redirectError(0, new Headers())
      : cause;
  });
}
