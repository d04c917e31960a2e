import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { REFS, RawConnection, TOKENS, expectError, start } from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start({ bodyLimit: 4096 });
});
afterAll(() => sandbox.close());

const profile = `/profiles/${REFS.profiles.defaultProject.id}`;
const BODY_BYTES = 8 * 1024 * 1024;

/** Uploads `total` bytes as fast as the socket takes them, until done or the connection ends. */
async function upload(connection: RawConnection, total: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  while (sent < total && !connection.socket.destroyed && connection.socket.writable) {
    const ok = connection.socket.write(chunk);
    sent += chunk.length;
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => {
          connection.socket.off('drain', done);
          connection.socket.off('close', done);
          resolve();
        };
        connection.socket.on('drain', done);
        connection.socket.on('close', done);
      });
    }
  }
  return sent;
}

describe('an early answer while the client still uploads', () => {
  it.each([
    ['401 for a bad token', 'Bearer sk_wrong', `Content-Length: ${BODY_BYTES}`, 401, 'unauthorized'],
    [
      '413 for a declared length over the limit',
      `Bearer ${TOKENS.owner}`,
      `Content-Length: ${BODY_BYTES}`,
      413,
      'payload_too_large',
    ],
    [
      '413 for a chunked body that grows over the limit',
      `Bearer ${TOKENS.owner}`,
      'Transfer-Encoding: chunked',
      413,
      'payload_too_large',
    ],
  ])('delivers the %s', async (_name, authorization, framing, status, code) => {
    for (let round = 0; round < 3; round++) {
      const connection = await RawConnection.open(sandbox.url);
      connection.write(
        `PATCH ${profile} HTTP/1.1\r\nHost: a\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`,
      );
      const chunked = framing.startsWith('Transfer');
      if (chunked) connection.write(`${(BODY_BYTES).toString(16)}\r\n`);
      // Like many clients, send the whole request before reading the answer.
      connection.socket.pause();
      await upload(connection, BODY_BYTES);
      if (chunked) connection.write('\r\n0\r\n\r\n');
      connection.socket.resume();
      expectError(await connection.response(), status, code);
      connection.destroy();
    }
  });
});

describe('the drain after an early answer', () => {
  it('is bounded: past 16 MiB of discarded body the connection is closed', async () => {
    const connection = await RawConnection.open(sandbox.url);
    connection.write(
      `PATCH ${profile} HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer sk_wrong\r\nContent-Type: application/json\r\nContent-Length: ${2 ** 40}\r\n\r\n`,
    );
    const uploading = upload(connection, 256 * 1024 * 1024);
    expectError(await connection.response(), 401, 'unauthorized');
    const sent = await uploading;
    await connection.closed();
    // The server stopped reading near 16 MiB; what was sent beyond sits in socket buffers.
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('the close after a parser error', () => {
  const oversized = `GET ${profile} HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}`;

  it('delivers the answer to a client that sends everything before reading', async () => {
    const connection = await RawConnection.open(sandbox.url);
    connection.write(oversized);
    connection.socket.pause();
    await upload(connection, BODY_BYTES);
    connection.socket.resume();
    expectError(await connection.response(), 431, 'request_header_fields_too_large');
    expect(await connection.closed()).toBe('end');
  });

  it('is bounded: past 16 MiB of discarded bytes the connection is closed', async () => {
    const connection = await RawConnection.open(sandbox.url);
    connection.write(oversized);
    const uploading = upload(connection, 256 * 1024 * 1024);
    expectError(await connection.response(), 431, 'request_header_fields_too_large');
    const sent = await uploading;
    await connection.closed();
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });
});
