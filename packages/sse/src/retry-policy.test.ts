import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  clampServerRetry,
  classifyResponse,
  isRetryable,
  MAX_TIMER_DELAY,
  MAX_RETRY_AFTER_MS,
  MIN_SERVER_RETRY_MS,
  parseRetryAfter,
} from './retry-policy.js';

const headers = (entries: Record<string, string>): Headers => new Headers(entries);
const sse = headers({ 'content-type': 'text/event-stream' });

describe('isRetryable', () => {
  it('408, 429 and 5xx; nothing else', () => {
    for (const status of [408, 429, 500, 502, 503, 504, 599]) expect(isRetryable(status)).toBe(true);
    for (const status of [200, 204, 301, 400, 401, 403, 404, 409, 410, 422, 600])
      expect(isRetryable(status)).toBe(false);
  });

  it('honours x-should-retry both ways, in any case', () => {
    expect(isRetryable(503, headers({ 'x-should-retry': 'false' }))).toBe(false);
    expect(isRetryable(429, headers({ 'x-should-retry': ' FALSE ' }))).toBe(false);
    expect(isRetryable(400, headers({ 'x-should-retry': 'true' }))).toBe(true);
    expect(isRetryable(404, headers({ 'x-should-retry': 'True' }))).toBe(true);
    // Anything else is no verdict: the status decides.
    expect(isRetryable(503, headers({ 'x-should-retry': 'maybe' }))).toBe(true);
    expect(isRetryable(400, headers({ 'x-should-retry': '1' }))).toBe(false);
  });

  it('never retries 409, even when told to', () => {
    expect(isRetryable(409, headers({ 'x-should-retry': 'true' }))).toBe(false);
    expect(isRetryable(409, headers({}))).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const at = (entries: Record<string, string>) => parseRetryAfter(headers(entries), now);

  it('reads delay-seconds', () => {
    expect(at({ 'retry-after': '0' })).toBe(0);
    expect(at({ 'retry-after': '3' })).toBe(3000);
    expect(at({ 'retry-after': ' 120 ' })).toBe(120_000);
  });

  it('reads an HTTP-date relative to now; a past date is no wait', () => {
    expect(at({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' })).toBe(5000);
    expect(at({ 'retry-after': 'Wednesday, 01-Jan-25 00:00:07 GMT' })).toBe(7000);
    expect(at({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' })).toBe(0);
  });

  it('prefers retry-after-ms, decimals allowed, and falls back when it is malformed', () => {
    expect(at({ 'retry-after-ms': '1234' })).toBe(1234);
    expect(at({ 'retry-after-ms': '12.5' })).toBe(12.5);
    expect(at({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250);
    expect(at({ 'retry-after-ms': '-5', 'retry-after': '2' })).toBe(2000);
    expect(at({ 'retry-after-ms': 'soon' })).toBeUndefined();
    expect(at({ 'retry-after-ms': '1.25' })).toBe(1.25);
    expect(at({ 'retry-after-ms': '12abc', 'retry-after': '2' })).toBe(2000);
  });

  it('ignores absent or malformed values, decimal seconds included (RFC 9110: 1*DIGIT)', () => {
    expect(at({})).toBeUndefined();
    expect(at({ 'retry-after': '' })).toBeUndefined();
    expect(at({ 'retry-after': '-1' })).toBeUndefined();
    expect(at({ 'retry-after': '1.5' })).toBeUndefined();
    expect(at({ 'retry-after': 'soon' })).toBeUndefined();
    expect(at({ 'retry-after': 'Mon, garbage' })).toBeUndefined();
    // Date.parse reads this, but an HTTP-date starts with its day name.
    expect(at({ 'retry-after': 'x mon, 01 Jan 2025 00:00:05 GMT' })).toBeUndefined();
  });

  it('is not capped here', () => {
    expect(at({ 'retry-after': '86400' })).toBe(86_400_000);
  });
});

describe('clampServerRetry', () => {
  it('keeps the SSE retry: between 500 ms and 60 s', () => {
    expect(clampServerRetry(0)).toBe(MIN_SERVER_RETRY_MS);
    expect(clampServerRetry(499)).toBe(500);
    expect(clampServerRetry(500)).toBe(500);
    expect(clampServerRetry(3000)).toBe(3000);
    expect(clampServerRetry(60_000)).toBe(60_000);
    expect(clampServerRetry(1e20)).toBe(60_000);
  });
});

describe('backoffDelay', () => {
  const noJitter = { maxDelay: 1000, jitter: 0 };

  it('starts at the base and doubles per consecutive attempt', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 100, noJitter))).toEqual([100, 200, 400, 800]);
    expect(backoffDelay(0, 100, noJitter)).toBe(100);
  });

  it('is capped at maxDelay', () => {
    expect(backoffDelay(5, 100, noJitter)).toBe(1000);
    expect(backoffDelay(60, 100, noJitter)).toBe(1000);
    expect(backoffDelay(2000, 100, noJitter)).toBe(1000);
  });

  it('never goes below a base larger than the cap', () => {
    expect(backoffDelay(1, 5000, noJitter)).toBe(5000);
    expect(backoffDelay(3, 5000, noJitter)).toBe(5000);
  });

  it('adds up to `jitter` of the delay on top, never less', () => {
    expect(backoffDelay(1, 100, { maxDelay: 1000, jitter: 0.5, random: () => 0 })).toBe(100);
    expect(backoffDelay(1, 100, { maxDelay: 1000, jitter: 0.5, random: () => 0.999 })).toBeCloseTo(149.95);
    expect(backoffDelay(4, 100, { maxDelay: 1000, jitter: 0.2, random: () => 0.5 })).toBe(880);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelay(2, 500, { maxDelay: 8000, jitter: 0.25 });
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThan(1250);
    }
  });

  it('waits at least the server’s Retry-After, capped at maxRetryAfter (default 60 s)', () => {
    expect(backoffDelay(1, 500, { ...noJitter, retryAfter: 3000 })).toBe(3000);
    expect(backoffDelay(3, 500, { ...noJitter, retryAfter: 100 })).toBe(1000);
    expect(backoffDelay(1, 500, { ...noJitter, retryAfter: 0 })).toBe(500);
    expect(backoffDelay(1, 500, { ...noJitter, retryAfter: 86_400_000 })).toBe(MAX_RETRY_AFTER_MS);
    expect(backoffDelay(1, 5, { ...noJitter, retryAfter: 1000, maxRetryAfter: 25 })).toBe(25);
  });

  it('stays within what setTimeout can wait', () => {
    // Node fires a larger delay at once.
    expect(MAX_TIMER_DELAY).toBe(2_147_483_647);
    expect(backoffDelay(1, 1e20, noJitter)).toBe(MAX_TIMER_DELAY);
    expect(backoffDelay(1, 0, noJitter)).toBe(0);
  });
});

describe('classifyResponse', () => {
  it('opens 200 text/event-stream', () => {
    expect(classifyResponse(200, sse)).toEqual({ kind: 'open' });
  });

  it('fails 200 with another or no content type', () => {
    expect(classifyResponse(200, headers({ 'content-type': 'application/json' }))).toEqual({
      kind: 'fail',
      type: 'bad-content-type',
    });
    expect(classifyResponse(200, headers({}))).toEqual({ kind: 'fail', type: 'bad-content-type' });
  });

  it('ends on 204', () => {
    expect(classifyResponse(204, headers({}))).toEqual({ kind: 'end' });
  });

  it('retries 408, 429 and 5xx, reading Retry-After', () => {
    for (const status of [408, 429, 500, 502, 503, 504, 599]) {
      expect(classifyResponse(status, headers({}))).toEqual({ kind: 'retry', retryAfter: undefined });
    }
    expect(classifyResponse(503, headers({ 'retry-after': '2' }))).toEqual({ kind: 'retry', retryAfter: 2000 });
  });

  it('follows x-should-retry; never retries 409', () => {
    expect(classifyResponse(503, headers({ 'x-should-retry': 'false' }))).toEqual({ kind: 'fail', type: 'bad-status' });
    expect(classifyResponse(404, headers({ 'x-should-retry': 'true' }))).toEqual({
      kind: 'retry',
      retryAfter: undefined,
    });
    expect(classifyResponse(409, headers({ 'x-should-retry': 'true' }))).toEqual({ kind: 'fail', type: 'bad-status' });
  });

  it('fails other statuses for good', () => {
    for (const status of [201, 206, 301, 304, 400, 401, 403, 404, 409, 410, 418]) {
      expect(classifyResponse(status, sse)).toEqual({ kind: 'fail', type: 'bad-status' });
    }
  });
});

describe('the text/event-stream check of a 200', () => {
  // A bare header source, so values reach the check untrimmed.
  const opens = (contentType: string | null): boolean =>
    classifyResponse(200, { get: (name) => (name === 'content-type' ? contentType : null) }).kind === 'open';

  it('compares the media type case-insensitively and ignores parameters', () => {
    expect(opens('text/event-stream')).toBe(true);
    expect(opens('Text/Event-Stream')).toBe(true);
    expect(opens('text/event-stream; charset=utf-8')).toBe(true);
    expect(opens(' text/event-stream ;x=y')).toBe(true);
  });

  it('rejects anything else', () => {
    expect(opens(null)).toBe(false);
    expect(opens('')).toBe(false);
    expect(opens('text/plain')).toBe(false);
    expect(opens('text/event-streams')).toBe(false);
    expect(opens('application/text/event-stream')).toBe(false);
  });
});
