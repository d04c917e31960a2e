import type { FetchLike } from './transport.js';

/**
 * `global-fetch.ts` as browser bundles take it (package.json `browser`): a browser's fetch is not
 * undici, so every request goes with `redirect: 'manual'`, and a redirect comes back as an opaque one.
 */
export function fetchUnredirected(
  input: Request | string,
  init?: RequestInit,
  injected?: FetchLike,
): Promise<Response> {
  const manual = { ...init, redirect: 'manual' } as const;
  return injected ? injected(new Request(input, manual)) : globalThis.fetch(input, manual);
}
