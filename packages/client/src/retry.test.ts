import { describe, expect, it } from 'vitest';
import { failedBeforeSending, isRetryableStatus, retryAfterMs, retryDelay } from './retry.js';
import { networkError } from './test-support/mock-fetch.js';

describe('retryDelay', () => {
  it('0.5 s × 2^n capped at 8 s, minus up to 25 % jitter', () => {
    const none = () => 0;
    const most = () => 0.999_999;
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => retryDelay(n, undefined, none))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect(retryDelay(0, undefined, most)).toBeCloseTo(375, 3);
    expect(retryDelay(4, undefined, most)).toBeCloseTo(6000, 2);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelay(1, undefined);
      expect(delay).toBeGreaterThan(750);
      expect(delay).toBeLessThanOrEqual(1000);
    }
  });

  it('prefers the server’s wait', () => {
    expect(retryDelay(3, new Headers({ 'retry-after': '2' }), () => 0)).toBe(2000);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-22T20:00:00Z');
  const at = (headers: Record<string, string>) => retryAfterMs(new Headers(headers), now);

  it('reads retry-after-ms, then Retry-After seconds or HTTP date', () => {
    expect(at({ 'retry-after-ms': '1234' })).toBe(1234);
    expect(at({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250);
    expect(at({ 'retry-after': '3' })).toBe(3000);
    expect(at({ 'retry-after': '1.5' })).toBe(1500);
    expect(at({ 'retry-after': 'Sun, 22 Nov 2026 20:00:07 GMT' })).toBe(7000);
  });

  it('clamps to [0, 60 s] and ignores what it cannot read', () => {
    expect(at({ 'retry-after': '3600' })).toBe(60_000);
    expect(at({ 'retry-after-ms': '-5' })).toBe(0);
    expect(at({ 'retry-after': 'Sun, 22 Nov 2026 19:00:00 GMT' })).toBe(0);
    expect(at({ 'retry-after': 'soon' })).toBeUndefined();
    expect(at({ 'retry-after': '' })).toBeUndefined();
    expect(at({})).toBeUndefined();
  });
});

describe('isRetryableStatus', () => {
  it('408, 429 and 5xx only; never 409', () => {
    expect([408, 429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 403, 404, 409, 422].some(isRetryableStatus)).toBe(false);
  });
});

describe('failedBeforeSending', () => {
  it('finds connect-time codes anywhere in the cause chain', () => {
    for (const code of [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EAI_AGAIN',
      'ENETUNREACH',
      'EHOSTUNREACH',
      'UND_ERR_CONNECT_TIMEOUT',
    ]) {
      expect(failedBeforeSending(networkError(code))).toBe(true);
    }
    const aggregate = Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {});
    expect(failedBeforeSending(new TypeError('fetch failed', { cause: aggregate }))).toBe(true);
  });

  it('is false for failures that may follow sending, and for code-less (browser) errors', () => {
    expect(failedBeforeSending(networkError('ECONNRESET'))).toBe(false);
    expect(failedBeforeSending(networkError('UND_ERR_SOCKET'))).toBe(false);
    expect(failedBeforeSending(new TypeError('Failed to fetch'))).toBe(false);
    expect(failedBeforeSending('ECONNREFUSED')).toBe(false);
    expect(failedBeforeSending(null)).toBe(false);
  });
});
