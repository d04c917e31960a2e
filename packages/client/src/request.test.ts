import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, type ClientOptions } from './connection.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BrowserCloudError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from './errors.js';
import {
  hangingFetch,
  json,
  LOGIN_RESPONSE,
  networkError,
  PROFILE,
  scriptedFetch,
  settle,
  TOKEN,
} from './test-support/mock-fetch.js';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-22T20:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

function client(fetch: ClientOptions['fetch'], options: Partial<ClientOptions> = {}) {
  return createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:1', fetch, ...options });
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);
const unavailable = json(503, { code: 'unavailable', message: 'try later' });
const internal = json(500, { code: 'internal_error', message: 'an internal error occurred; retry later' });

describe('retries', () => {
  it('rename: retried twice by default with backoff 0.5 s then 1 s (plus ≤ 25 % jitter), then succeeds', async () => {
    const fetch = scriptedFetch(unavailable, internal, json(200, PROFILE));
    expect(await settle(client(fetch).profiles.rename('prof_1', { name: 'n' }))).toEqual(PROFILE);
    expect(fetch).toHaveBeenCalledTimes(3);
    const [first, second] = gaps(fetch.times);
    expect(first).toBeGreaterThanOrEqual(500);
    expect(first).toBeLessThanOrEqual(625);
    expect(second).toBeGreaterThanOrEqual(1000);
    expect(second).toBeLessThanOrEqual(1250);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const fetch = scriptedFetch(unavailable);
    const error = await settle(client(fetch).profiles.rename('prof_1', { name: 'n' }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('maxRetries from the client and per call', async () => {
    const five = scriptedFetch(unavailable);
    await settle(client(five, { maxRetries: 5 }).profiles.rename('prof_1', { name: 'n' }));
    expect(five).toHaveBeenCalledTimes(6);
    expect(gaps(five.times).every((gap, n) => gap >= Math.min(500 * 2 ** n, 8000))).toBe(true);
    expect(gaps(five.times).every((gap, n) => gap <= Math.min(500 * 2 ** n, 8000) * 1.25)).toBe(true);
    const none = scriptedFetch(unavailable);
    await settle(client(none, { maxRetries: 5 }).profiles.rename('prof_1', { name: 'n' }, { maxRetries: 0 }));
    expect(none).toHaveBeenCalledTimes(1);
  });

  it('408 and 429 are retried; 400, 404 and 409 are not', async () => {
    const timeout = scriptedFetch(json(408, { code: 'timeout', message: 't' }), json(200, PROFILE));
    expect(await settle(client(timeout).profiles.rename('prof_1', { name: 'n' }))).toEqual(PROFILE);
    expect(timeout).toHaveBeenCalledTimes(2);
    for (const status of [400, 404, 409]) {
      const fetch = scriptedFetch(json(status, { code: 'x', message: 'y' }), json(200, PROFILE));
      await settle(client(fetch).profiles.rename('prof_1', { name: 'n' }));
      expect(fetch).toHaveBeenCalledTimes(1);
    }
    const conflict = scriptedFetch(json(409, { code: 'conflict', message: 'taken' }));
    expect(await settle(client(conflict).profiles.rename('prof_1', { name: 'n' }))).toBeInstanceOf(ConflictError);
  });

  it('honours Retry-After in seconds, as an HTTP date, and retry-after-ms', async () => {
    const seconds = scriptedFetch(
      json(429, { code: 'rate_limited', message: 'slow down' }, { 'retry-after': '3' }),
      json(200, PROFILE),
    );
    await settle(client(seconds).profiles.rename('prof_1', { name: 'n' }));
    expect(gaps(seconds.times)).toEqual([3000]);

    const date = new Date(Date.now() + 5000).toUTCString();
    const dated = scriptedFetch(json(503, { code: 'u', message: 'u' }, { 'retry-after': date }), json(200, PROFILE));
    await settle(client(dated).profiles.rename('prof_1', { name: 'n' }));
    expect(gaps(dated.times)[0]).toBeGreaterThan(4000);
    expect(gaps(dated.times)[0]).toBeLessThanOrEqual(5000);

    const ms = scriptedFetch(
      json(429, { code: 'r', message: 'r' }, { 'retry-after-ms': '1234', 'retry-after': '9' }),
      json(200, PROFILE),
    );
    await settle(client(ms).profiles.rename('prof_1', { name: 'n' }));
    expect(gaps(ms.times)).toEqual([1234]);
  });

  it('ignores a Retry-After in decimal seconds (RFC 9110: whole seconds) and waits the backoff', async () => {
    const fetch = scriptedFetch(json(503, { code: 'u', message: 'u' }, { 'retry-after': '7.5' }), json(200, PROFILE));
    await settle(client(fetch).profiles.rename('prof_1', { name: 'n' }));
    expect(gaps(fetch.times)[0]).toBeGreaterThanOrEqual(500);
    expect(gaps(fetch.times)[0]).toBeLessThanOrEqual(625);
  });

  it('honours x-should-retry: false on a retryable status, and true on another (never on 409)', async () => {
    const refused = scriptedFetch(
      json(503, { code: 'u', message: 'u' }, { 'x-should-retry': 'false' }),
      json(200, PROFILE),
    );
    expect(await settle(client(refused).profiles.rename('prof_1', { name: 'n' }))).toBeInstanceOf(InternalServerError);
    expect(refused).toHaveBeenCalledTimes(1);
    const told = scriptedFetch(
      json(400, { code: 'b', message: 'b' }, { 'x-should-retry': 'true' }),
      json(200, PROFILE),
    );
    expect(await settle(client(told).profiles.rename('prof_1', { name: 'n' }))).toEqual(PROFILE);
    expect(told).toHaveBeenCalledTimes(2);
    const conflict = scriptedFetch(
      json(409, { code: 'c', message: 'c' }, { 'x-should-retry': 'true' }),
      json(200, PROFILE),
    );
    expect(await settle(client(conflict).profiles.rename('prof_1', { name: 'n' }))).toBeInstanceOf(ConflictError);
    expect(conflict).toHaveBeenCalledTimes(1);
    const login = scriptedFetch(
      json(503, { code: 'u', message: 'u' }, { 'x-should-retry': 'true' }),
      json(200, LOGIN_RESPONSE),
    );
    expect(await settle(client(login).auth.connections.login('ac_1'))).toBeInstanceOf(InternalServerError);
    expect(login).toHaveBeenCalledTimes(1);
  });

  it('caps Retry-After at 60 s', async () => {
    const fetch = scriptedFetch(json(429, { code: 'r', message: 'r' }, { 'retry-after': '86400' }), json(200, PROFILE));
    await settle(client(fetch).profiles.rename('prof_1', { name: 'n' }));
    expect(gaps(fetch.times)).toEqual([60_000]);
  });

  it('the last 429 surfaces as RateLimitError with its headers', async () => {
    const fetch = scriptedFetch(json(429, { code: 'r', message: 'r' }, { 'retry-after': '1' }));
    const error = await settle(client(fetch, { maxRetries: 1 }).profiles.rename('prof_1', { name: 'n' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers.get('retry-after')).toBe('1');
  });

  it('rename is retried on connection errors of any kind', async () => {
    const fetch = scriptedFetch(networkError('ECONNRESET'), networkError('ECONNREFUSED'), json(200, PROFILE));
    expect(await settle(client(fetch).profiles.rename('prof_1', { name: 'n' }))).toEqual(PROFILE);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('a connection error that persists is an APIConnectionError with the cause', async () => {
    const fetch = scriptedFetch(networkError('ECONNRESET'));
    const error = await settle(client(fetch).profiles.rename('prof_1', { name: 'n' }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect(((error as Error).cause as Error).message).toBe('fetch failed');
    expect((((error as Error).cause as Error).cause as { code: string }).code).toBe('ECONNRESET');
  });
});

describe('a rename by name is not retried once the server may have acted (it is not idempotent)', () => {
  it('not after a 5xx, a reset or a timeout; the first attempt may have renamed it', async () => {
    for (const answer of [internal, unavailable, networkError('ECONNRESET')]) {
      const fetch = scriptedFetch(answer, json(404, { code: 'not_found', message: 'no profile checkout-agent' }));
      const error = await settle(client(fetch).profiles.rename('checkout-agent', { name: 'checkout-agent-eu' }));
      expect(error).not.toBeInstanceOf(NotFoundError);
      expect(fetch).toHaveBeenCalledTimes(1);
    }
    const hanging = hangingFetch();
    const timedOut = await settle(
      client(hanging, { timeoutMs: 1000 }).profiles.rename('checkout-agent', { name: 'x' }),
    );
    expect(timedOut).toBeInstanceOf(APIConnectionTimeoutError);
    expect(hanging).toHaveBeenCalledTimes(1);
  });

  it('retried when the connection failed before sending; by ID it is retried as usual', async () => {
    const refused = scriptedFetch(networkError('ECONNREFUSED'), json(200, PROFILE));
    expect(await settle(client(refused).profiles.rename('checkout-agent', { name: 'n' }))).toEqual(PROFILE);
    expect(refused).toHaveBeenCalledTimes(2);
    const byId = scriptedFetch(unavailable, json(200, PROFILE));
    expect(await settle(client(byId).profiles.rename('prof_01HZY5C7D9E1F3G5H7J9K1M3NA', { name: 'n' }))).toEqual(
      PROFILE,
    );
    expect(byId).toHaveBeenCalledTimes(2);
  });
});

describe('a 2xx whose body is not JSON', () => {
  it('is a BrowserCloudError, never retried, though retries are left', async () => {
    const fetch = scriptedFetch(
      () => new Response('<html>', { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    const error = await settle(client(fetch).profiles.rename('p', { name: 'n' }));
    expect(error).toBeInstanceOf(BrowserCloudError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe('The response body is not valid JSON.');
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('login is not retried once the server may have acted', () => {
  it('not after any response: 500, 503, 429 with Retry-After, 409', async () => {
    for (const answer of [internal, unavailable, json(429, { code: 'r', message: 'r' }, { 'retry-after': '1' })]) {
      const fetch = scriptedFetch(answer, json(200, LOGIN_RESPONSE));
      const error = await settle(client(fetch).auth.connections.login('ac_1', {}));
      expect(error).toBeInstanceOf(Error);
      expect(fetch).toHaveBeenCalledTimes(1);
    }
    const conflict = scriptedFetch(json(409, { code: 'conflict', message: 'a login flow is already in progress' }));
    expect(await settle(client(conflict).auth.connections.login('ac_1'))).toBeInstanceOf(ConflictError);
    expect(conflict).toHaveBeenCalledTimes(1);
  });

  it('not after a connection failure that may follow sending (reset, code-less)', async () => {
    for (const failure of [networkError('ECONNRESET'), new TypeError('Failed to fetch')]) {
      const fetch = scriptedFetch(failure, json(200, LOGIN_RESPONSE));
      expect(await settle(client(fetch).auth.connections.login('ac_1'))).toBeInstanceOf(APIConnectionError);
      expect(fetch).toHaveBeenCalledTimes(1);
    }
  });

  it('not after a timeout', async () => {
    const fetch = hangingFetch();
    const error = await settle(client(fetch, { timeoutMs: 1000 }).auth.connections.login('ac_1'));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('retried when the connection failed before sending (refused, DNS)', async () => {
    const fetch = scriptedFetch(networkError('ECONNREFUSED'), networkError('ENOTFOUND'), json(200, LOGIN_RESPONSE));
    expect(await settle(client(fetch).auth.connections.login('ac_1'))).toEqual(LOGIN_RESPONSE);
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});

describe('timeouts', () => {
  it('60 s by default, up to the response headers; the request signal is aborted', async () => {
    const fetch = hangingFetch();
    const started = Date.now();
    const error = await settle(client(fetch, { maxRetries: 0 }).profiles.rename('prof_1', { name: 'n' }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe('Request timed out after 60000 ms.');
    expect(Date.now() - started).toBe(60_000);
    expect(fetch.requests[0]?.signal.aborted).toBe(true);
  });

  it('covers the JSON body read', async () => {
    const fetch = scriptedFetch(
      () =>
        new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"id":')) }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const error = await settle(
      client(fetch, { maxRetries: 0, timeoutMs: 2000 }).profiles.rename('prof_1', { name: 'n' }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('holds even when the fetch ignores its signal', async () => {
    const fetch = vi.fn(() => new Promise<Response>(() => {}));
    const error = await settle(
      client(fetch, { maxRetries: 0 }).profiles.rename('prof_1', { name: 'n' }, { timeoutMs: 10 }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it('a timed-out rename is retried, each attempt with its own timeout', async () => {
    const fetch = hangingFetch();
    const started = Date.now();
    await settle(client(fetch, { timeoutMs: 1000 }).profiles.rename('prof_1', { name: 'n' }));
    expect(fetch).toHaveBeenCalledTimes(3);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(3000 + 500 + 1000);
    expect(elapsed).toBeLessThanOrEqual(3000 + 625 + 1250);
  });
});

describe('aborts', () => {
  it('an abort during the request rejects with APIUserAbortError and is not retried', async () => {
    const fetch = hangingFetch();
    const controller = new AbortController();
    const pending = client(fetch).profiles.rename('prof_1', { name: 'n' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await settle(pending);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.requests[0]?.signal.aborted).toBe(true);
  });

  it('an abort during the wait before a retry ends it at once', async () => {
    const fetch = scriptedFetch(json(503, { code: 'u', message: 'u' }, { 'retry-after': '30' }));
    const controller = new AbortController();
    const started = Date.now();
    const pending = client(fetch).profiles.rename('prof_1', { name: 'n' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 1000);
    expect(await settle(pending)).toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBe(1000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('calls sharing one signal add no listener each to it (no MaxListenersExceededWarning)', async () => {
    vi.useRealTimers();
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const fetch = hangingFetch();
      const controller = new AbortController();
      const c = client(fetch);
      const calls = Array.from({ length: 20 }, () =>
        c.profiles.rename('prof_1', { name: 'n' }, { signal: controller.signal }).catch((e: unknown) => e),
      );
      // Every call has reached the fetch before the abort.
      while (fetch.requests.length < 20) await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      expect((await Promise.all(calls)).every((error) => error instanceof APIUserAbortError)).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it("the caller's abort reaches the request in flight at once, for a login too", async () => {
    for (const call of ['rename', 'login'] as const) {
      const fetch = hangingFetch();
      const controller = new AbortController();
      const api = client(fetch);
      const pending = (
        call === 'rename'
          ? api.profiles.rename('p', { name: 'n' }, { signal: controller.signal })
          : api.auth.connections.login('ac_1', undefined, { signal: controller.signal })
      ).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(0);
      expect(fetch.requests[0]?.signal.aborted).toBe(false);
      const before = Date.now();
      controller.abort();
      expect(fetch.requests[0]?.signal.aborted).toBe(true);
      // No timer had to run: the abort alone settled the call.
      expect(await pending).toBeInstanceOf(APIUserAbortError);
      expect(Date.now()).toBe(before);
      expect(fetch).toHaveBeenCalledTimes(1);
    }
  });

  it('an already aborted signal sends nothing', async () => {
    const fetch = scriptedFetch(json(200, PROFILE));
    const error = await settle(client(fetch).profiles.rename('prof_1', { name: 'n' }, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(fetch).not.toHaveBeenCalled();
  });
});
