import { describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTION_LIMITS, timeoutCheckInterval } from './connection-limits.js';

const limits = (headersTimeoutMs: number, requestTimeoutMs: number) => ({
  ...DEFAULT_CONNECTION_LIMITS,
  headersTimeoutMs,
  requestTimeoutMs,
});

describe('timeoutCheckInterval', () => {
  it('checks four times per shortest timeout, between 10 ms and 1 s', () => {
    expect(timeoutCheckInterval(DEFAULT_CONNECTION_LIMITS)).toBe(1000);
    expect(timeoutCheckInterval(limits(200, 30_000))).toBe(50);
    expect(timeoutCheckInterval(limits(30_000, 202))).toBe(50);
    expect(timeoutCheckInterval(limits(4000, 4000))).toBe(1000);
    expect(timeoutCheckInterval(limits(3996, 5000))).toBe(999);
    expect(timeoutCheckInterval(limits(44, 5000))).toBe(11);
    expect(timeoutCheckInterval(limits(40, 5000))).toBe(10);
    expect(timeoutCheckInterval(limits(8, 5000))).toBe(10);
  });
});
