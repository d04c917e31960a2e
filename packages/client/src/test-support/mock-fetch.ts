import { vi } from 'vitest';

/** One scripted answer: a response factory (bodies are single-use), or an error to throw. */
export type Answer = (() => Response | Promise<Response>) | Error;

/**
 * An injected fetch that records each Request and plays `answers` in order (the last one
 * repeats). No global is touched.
 */
export function scriptedFetch(...answers: Answer[]) {
  const requests: Request[] = [];
  const times: number[] = [];
  const fetch = vi.fn(async (request: Request): Promise<Response> => {
    requests.push(request);
    times.push(Date.now());
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
    if (answer === undefined) throw new Error('no scripted answer');
    if (answer instanceof Error) throw answer;
    return answer();
  });
  return Object.assign(fetch, { requests, times });
}

/** A JSON response factory. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): () => Response {
  return text(status, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
}

/** A text response factory (an HTML error page from a proxy, say). */
export function text(status: number, body: string, headers: Record<string, string> = {}): () => Response {
  return () => new Response(body, { status, headers: { 'content-type': 'text/html', ...headers } });
}

/** A Node-style network failure, as undici reports it: TypeError with a coded cause. */
export function networkError(code: string, message = `connect ${code} 127.0.0.1:9`): TypeError {
  const cause = Object.assign(new Error(message), { code, syscall: 'connect' });
  return new TypeError('fetch failed', { cause });
}

/** A fetch that never answers but rejects when the request's signal aborts, like a real one. */
export function hangingFetch() {
  const requests: Request[] = [];
  const fetch = vi.fn(
    (request: Request) =>
      new Promise<Response>((_, reject) => {
        requests.push(request);
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      }),
  );
  return Object.assign(fetch, { requests });
}

export const LOGIN_RESPONSE = {
  id: 'ac_1',
  flow_type: 'LOGIN',
  hosted_url: 'https://auth.example.com/login/ac_1',
  flow_expires_at: '2026-11-22T20:15:00Z',
} as const;

export const PROFILE = { id: 'prof_1', name: 'checkout-agent-eu', created_at: '2026-10-02T09:12:44Z' } as const;

export const TOKEN = 'sk_test_SECRET_4f9a2c7e81b3d6';

/** Runs `promise` to completion under fake timers; resolves to its value or its rejection. */
export async function settle<T>(promise: Promise<T>): Promise<T | unknown> {
  const outcome = promise.then(
    (value) => value,
    (error: unknown) => error,
  );
  await vi.runAllTimersAsync();
  return outcome;
}
