import { describe, expect, it } from 'vitest';
import { failedBeforeSending } from './failed-before-sending.js';
import { networkError } from './test-support/mock-fetch.js';

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
