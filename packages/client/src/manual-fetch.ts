import type { FetchLike } from './transport.js';

/**
 * Sends through `injected` (as a `Request`) or the global fetch with `redirect: 'manual'`: a 3xx
 * comes back as it is, in a browser as an opaque redirect. What browser bundles take for
 * `global-fetch.ts` (package.json `browser`): a browser's fetch is not undici.
 */
export function fetchUnredirected(
  input: Request | string,
  init?: RequestInit,
  injected?: FetchLike,
): Promise<Response> {
  const manual = { ...init, redirect: 'manual' } as const;
  return injected ? injected(new Request(input, manual)) : globalThis.fetch(input, manual);
}
