import { describe, expect, it } from 'vitest';
import { bearerToken } from './auth.js';

describe('bearerToken', () => {
  it('reads the token of a Bearer header, the scheme in any case, around spaces', () => {
    expect(bearerToken('Bearer sk_abc')).toBe('sk_abc');
    expect(bearerToken('bearer sk_abc')).toBe('sk_abc');
    expect(bearerToken('BEARER sk_abc')).toBe('sk_abc');
    expect(bearerToken('Bearer    sk_abc   ')).toBe('sk_abc');
  });

  it('refuses anything but the whole header being one Bearer token', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Basic sk_abc')).toBeUndefined();
    expect(bearerToken('Bearersk_abc')).toBeUndefined();
    // Anchored at both ends: no text before the scheme, none after the token.
    expect(bearerToken('xBearer sk_abc')).toBeUndefined();
    expect(bearerToken(' Bearer sk_abc')).toBeUndefined();
    expect(bearerToken('Bearer sk_abc extra')).toBeUndefined();
    expect(bearerToken('Bearer sk_abc\t')).toBeUndefined();
    expect(bearerToken('Bearer \tsk_abc')).toBeUndefined();
  });
});
