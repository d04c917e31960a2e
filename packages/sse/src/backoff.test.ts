import { describe, expect, it } from 'vitest';
import { backoffDelay, MAX_TIMER_DELAY } from './backoff.js';

const noJitter = { maxDelay: 1000, jitter: 0, random: () => 0.5 };

describe('backoffDelay', () => {
  it('starts at the base and doubles per consecutive attempt', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 100, noJitter))).toEqual([100, 200, 400, 800]);
  });

  it('is capped at maxDelay', () => {
    expect(backoffDelay(5, 100, noJitter)).toBe(1000);
    expect(backoffDelay(60, 100, noJitter)).toBe(1000);
    expect(backoffDelay(2000, 100, noJitter)).toBe(1000);
  });

  it('never goes below a server-given base larger than the cap', () => {
    expect(backoffDelay(1, 5000, noJitter)).toBe(5000);
    expect(backoffDelay(3, 5000, noJitter)).toBe(5000);
  });

  it('adds up to `jitter` of the delay on top', () => {
    expect(backoffDelay(1, 100, { maxDelay: 1000, jitter: 0.5, random: () => 0 })).toBe(100);
    expect(backoffDelay(1, 100, { maxDelay: 1000, jitter: 0.5, random: () => 0.999 })).toBeCloseTo(149.95);
    expect(backoffDelay(4, 100, { maxDelay: 1000, jitter: 0.2, random: () => 0.5 })).toBe(880);
  });

  it('stays within what setTimeout can wait', () => {
    expect(backoffDelay(1, 1e20, noJitter)).toBe(MAX_TIMER_DELAY);
    expect(backoffDelay(1, 0, noJitter)).toBe(0);
  });
});
