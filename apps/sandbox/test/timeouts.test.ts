import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { REFS, RawConnection, TOKENS, expectError, start } from './helpers.js';

// Small limits, set through the options, so that nothing waits long; each test waits for the
// server's answer or close, never for a fixed time.
let sandbox: RunningSandbox;
let slowRequest: RunningSandbox;
beforeAll(async () => {
  sandbox = await start({ headersTimeoutMs: 200, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 200 });
  slowRequest = await start({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
});
afterAll(async () => {
  await sandbox.close();
  await slowRequest.close();
});

const patch = (extra: string): string =>
  `PATCH /profiles/${REFS.profiles.defaultProject.id} HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${TOKENS.owner}\r\nContent-Type: application/json\r\n${extra}\r\n`;

describe('timeouts', () => {
  it('answers headers that stall with 408 and closes the connection', async () => {
    const connection = await RawConnection.open(sandbox.url);
    connection.write('GET /_sandbox/flows HTTP/1.1\r\nHost: a\r\n');
    const body = expectError(await connection.response(), 408, 'request_timeout');
    expect(body.message).toMatch(/headers within 200 ms/);
    expect(await connection.closed()).toBe('end');
  });

  it('answers a body that stalls mid-way with 408 at the request timeout and closes the connection', async () => {
    const connection = await RawConnection.open(slowRequest.url);
    connection.write(`${patch('Content-Length: 100\r\n')}{"name":`);
    const body = expectError(await connection.response(), 408, 'request_timeout');
    expect(body.message).toMatch(/whole request within 300 ms/);
    expect(await connection.closed()).toBe('end');
  });

  it('answers a body that keeps trickling past the request timeout with 408', async () => {
    const connection = await RawConnection.open(slowRequest.url);
    connection.write(patch('Content-Length: 10000\r\n'));
    const trickle = setInterval(() => connection.write('a'), 20);
    try {
      const body = expectError(await connection.response(), 408, 'request_timeout');
      expect(body.message).toMatch(/whole request within 300 ms/);
    } finally {
      clearInterval(trickle);
    }
  });

  it('closes a connection that sends no byte at the header timeout, with nothing to answer', async () => {
    const connection = await RawConnection.open(sandbox.url);
    expect(await connection.closed()).toBe('end');
    expect(connection.received.toString('latin1')).toBe('');
  });

  it('closes a kept-alive connection that stays idle', async () => {
    const connection = await RawConnection.open(sandbox.url);
    connection.write('GET /_sandbox/flows HTTP/1.1\r\nHost: a\r\n\r\n');
    expect((await connection.response()).status).toBe(200);
    expect(await connection.closed()).toBe('end');
  });

  it('refuses a header timeout longer than the request timeout, and non-positive ones', async () => {
    await expect(start({ headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).rejects.toThrow(
      /headersTimeoutMs \(2000\) must not exceed requestTimeoutMs \(1000\)/,
    );
    await expect(start({ requestTimeoutMs: 0 })).rejects.toThrow(/requestTimeoutMs must be a positive number/);
    await expect(start({ keepAliveTimeoutMs: Number.NaN })).rejects.toThrow(/keepAliveTimeoutMs must be a positive/);
  });
});
