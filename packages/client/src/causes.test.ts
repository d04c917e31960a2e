import { describe, expect, it } from 'vitest';
import { describeConnectionFailure, failedBeforeSending } from './causes.js';
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

describe('describeConnectionFailure', () => {
  it('a DNS failure gives the host name; a cause without a code keeps the plain message', () => {
    const dns = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND api.invalid'), {
        code: 'ENOTFOUND',
        hostname: 'api.invalid',
      }),
    });
    expect(describeConnectionFailure(dns)).toBe('ENOTFOUND api.invalid');
    expect(describeConnectionFailure(new TypeError('Failed to fetch'))).toBe('');
    expect(describeConnectionFailure(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    expect(describeConnectionFailure(Object.assign(new Error('x'), { code: '', address: '::1' }))).toBe('');
    expect(describeConnectionFailure(Object.assign(new Error('x'), { code: 'EPIPE', address: '/tmp/s.sock' }))).toBe(
      'EPIPE /tmp/s.sock',
    );
    // A code without an address is kept while a later error in the chain may have one.
    const tls = new TypeError('fetch failed', {
      cause: Object.assign(new Error('tls'), {
        code: 'ERR_TLS',
        cause: { code: 'ECONNRESET', address: '10.0.0.1', port: 443 },
      }),
    });
    expect(describeConnectionFailure(tls)).toBe('ECONNRESET 10.0.0.1:443');
    expect(describeConnectionFailure(Object.assign(new Error('x'), { code: 'ERR_TLS', cause: new Error('y') }))).toBe(
      'ERR_TLS',
    );
    const loop = new Error('loop');
    loop.cause = loop;
    expect(describeConnectionFailure(loop)).toBe('');
    expect(describeConnectionFailure(Object.assign(new Error('x'), { code: 'E1', hostname: 42 }))).toBe('E1');
    // The 64th error of a chain is looked at, the 65th is not.
    const chain = (length: number) => {
      let deep: Error = Object.assign(new Error('bottom'), { code: 'ECONNRESET' });
      for (let i = 1; i < length; i++) deep = new Error(`level ${i}`, { cause: deep });
      return deep;
    };
    expect(describeConnectionFailure(chain(64))).toBe('ECONNRESET');
    expect(describeConnectionFailure(chain(65))).toBe('');
    const both = new AggregateError([
      Object.assign(new Error('a'), { code: 'ECONNREFUSED', address: '::1', port: 80 }),
      Object.assign(new Error('b'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 80 }),
    ]);
    expect(describeConnectionFailure(new TypeError('fetch failed', { cause: both }))).toBe('ECONNREFUSED ::1:80');
  });
});
