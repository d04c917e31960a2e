import { describe, expect, it } from 'vitest';
import { excerpt } from './excerpt.js';

describe('excerpt', () => {
  it('keeps text up to the limit and cuts longer text, noting its length', () => {
    expect(excerpt('abc', 3)).toBe('abc');
    expect(excerpt('abcd', 3)).toBe('abc… (4 characters)');
    expect(excerpt('x'.repeat(100))).toBe('x'.repeat(100));
    expect(excerpt('x'.repeat(101))).toBe(`${'x'.repeat(100)}… (101 characters)`);
  });
});
