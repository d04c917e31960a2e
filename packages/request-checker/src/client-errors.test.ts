import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clientErrorHandler,
  closeAfterAnswer,
  DRAIN_LIMITS,
  drainRequestBody,
  isAnswered,
  type ParserError,
  parserErrorAnswer,
  serverTimeouts,
} from './client-errors.js';

const limits = { headersTimeoutMs: 100, requestTimeoutMs: 200 };
const answer = (code: string, reason?: string) =>
  parserErrorAnswer(
    Object.assign(new Error('x'), { code, ...(reason === undefined ? {} : { reason }) }) as ParserError,
    limits,
  );
const detail = (code: string, reason?: string) => answer(code, reason).body.details?.[0]?.message;

describe('parserErrorAnswer', () => {
  it('answers timeouts with 408 naming both limits, and header overflow with 431', () => {
    expect(answer('ERR_HTTP_REQUEST_TIMEOUT')).toEqual({
      status: 408,
      body: {
        code: 'request_timeout',
        message: 'the request did not arrive in time: headers within 100 ms, the whole request within 200 ms',
      },
    });
    expect(answer('HPE_HEADER_OVERFLOW').status).toBe(431);
    expect(answer('HPE_CHUNK_EXTENSIONS_OVERFLOW')).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
  });

  it('names the field and the rule of every malformed request', () => {
    expect(detail('HPE_INVALID_HEADER_TOKEN')).toMatch(/^headers: .*NUL/);
    expect(detail('HPE_LF_EXPECTED')).toMatch(/^headers: /);
    expect(detail('HPE_CR_EXPECTED')).toMatch(/^headers: /);
    expect(detail('HPE_INVALID_METHOD')).toBe('method: not an HTTP method');
    expect(detail('HPE_UNEXPECTED_CONTENT_LENGTH')).toBe(
      'headers: Content-Length and Transfer-Encoding together are not allowed',
    );
    expect(detail('HPE_INVALID_TRANSFER_ENCODING', "Transfer-Encoding can't be present with Content-Length")).toBe(
      'headers: Content-Length and Transfer-Encoding together are not allowed',
    );
    expect(detail('HPE_INVALID_TRANSFER_ENCODING', 'Request has invalid `Transfer-Encoding`')).toBe(
      'headers.transfer-encoding: must end with chunked',
    );
    expect(detail('HPE_INVALID_CONTENT_LENGTH')).toBe('headers.content-length: must be one decimal number');
    expect(detail('HPE_INVALID_CHUNK_SIZE')).toBe('body: a chunk size is not a hexadecimal number');
    expect(detail('HPE_INVALID_URL')).toMatch(/^path: /);
    expect(detail('HPE_INVALID_VERSION')).toBe('version: must be HTTP/1.0 or HTTP/1.1');
    for (const code of ['HPE_INVALID_METHOD', 'HPE_INVALID_URL']) {
      expect(answer(code)).toMatchObject({ status: 400, body: { code: 'bad_request' } });
    }
  });

  it('falls back to a bounded quote of the parser reason for any other error', () => {
    expect(detail('HPE_PAUSED_UPGRADE', 'Pause on CONNECT/Upgrade')).toBe('request: Pause on CONNECT/Upgrade');
    expect(detail('HPE_SOMETHING_NEW')).toBe('request: HPE_SOMETHING_NEW');
    expect(detail('HPE_X', 'r'.repeat(500))).toHaveLength('request: '.length + 100);
  });
});

describe('parserErrorAnswer, word for word', () => {
  it('gives every answer its exact status and body', () => {
    const malformedHeader =
      'headers: a header line is malformed or holds a character HTTP does not allow (NUL, a bare CR or LF, a control character)';
    const bad = (message: string) => ({
      status: 400,
      body: {
        code: 'bad_request',
        message: 'the request is not valid HTTP/1.1',
        details: [{ code: 'invalid_input', message }],
      },
    });
    expect(answer('HPE_HEADER_OVERFLOW')).toEqual({
      status: 431,
      body: {
        code: 'request_header_fields_too_large',
        message: 'the request line and headers are larger than 16 KiB',
      },
    });
    expect(answer('HPE_CHUNK_EXTENSIONS_OVERFLOW')).toEqual({
      status: 413,
      body: { code: 'payload_too_large', message: 'the chunk extensions of the body are too large' },
    });
    for (const code of ['HPE_INVALID_HEADER_TOKEN', 'HPE_LF_EXPECTED', 'HPE_CR_EXPECTED']) {
      expect(answer(code)).toEqual(bad(malformedHeader));
    }
    expect(answer('HPE_INVALID_URL')).toEqual(bad('path: holds a character a URL does not allow'));
    expect(answer('HPE_INVALID_TRANSFER_ENCODING')).toEqual(bad('headers.transfer-encoding: must end with chunked'));
    expect(answer('HPE_INVALID_CHUNK_SIZE').status).toBe(400);
    expect(parserErrorAnswer(new Error('x') as ParserError, limits)).toEqual(bad('request: malformed'));
  });
});

/** A socket that records what the handler wrote and did. */
class FakeSocket extends EventEmitter {
  bytesRead = 0;
  destroyed = false;
  writable = true;
  ended = false;
  written = '';
  _httpMessage: { headersSent: boolean } | null = null;
  write(text: string): boolean {
    this.written += text;
    return true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  end(): void {
    this.ended = true;
  }
  resume(): void {}
}

const parserError = (code: string): ParserError => Object.assign(new Error('x'), { code });
const onClientError = clientErrorHandler(limits);

describe('clientErrorHandler', () => {
  it('writes the Error body with a request id, then closes gracefully', () => {
    const socket = new FakeSocket();
    onClientError(parserError('HPE_INVALID_METHOD'), socket as unknown as Socket);
    const [head, body] = socket.written.split('\r\n\r\n') as [string, string];
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(lines).toContain('Content-Type: application/json; charset=utf-8');
    expect(lines).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(lines).toContain('Connection: close');
    expect(lines.find((line) => line.startsWith('X-Request-Id: '))).toMatch(/^X-Request-Id: req_[0-9a-f]{16}$/);
    expect(lines).toHaveLength(5);
    expect(JSON.parse(body)).toEqual(answer('HPE_INVALID_METHOD').body);
    expect(socket.ended).toBe(true);
    expect(socket.destroyed).toBe(false);
  });

  it('answers a timeout with 408', () => {
    const socket = new FakeSocket();
    socket.bytesRead = 1;
    onClientError(parserError('ERR_HTTP_REQUEST_TIMEOUT'), socket as unknown as Socket);
    expect(socket.written.startsWith('HTTP/1.1 408 Request Timeout\r\n')).toBe(true);
  });

  it('closes at once, with no answer, a connection that timed out without sending a byte', () => {
    const socket = new FakeSocket();
    onClientError(parserError('ERR_HTTP_REQUEST_TIMEOUT'), socket as unknown as Socket);
    expect(socket).toMatchObject({ written: '', destroyed: true });
  });

  it('writes nothing to a reset, destroyed or unwritable socket, or into a started response', () => {
    const reset = new FakeSocket();
    onClientError(parserError('ECONNRESET'), reset as unknown as Socket);
    expect(reset).toMatchObject({ written: '', destroyed: false, ended: false });

    const destroyed = new FakeSocket();
    destroyed.destroyed = true;
    onClientError(parserError('HPE_INVALID_METHOD'), destroyed as unknown as Socket);
    expect(destroyed).toMatchObject({ written: '', ended: false });

    const unwritable = new FakeSocket();
    unwritable.writable = false;
    onClientError(parserError('HPE_INVALID_METHOD'), unwritable as unknown as Socket);
    expect(unwritable).toMatchObject({ written: '', destroyed: true });

    const started = new FakeSocket();
    started._httpMessage = { headersSent: true };
    onClientError(parserError('HPE_INVALID_METHOD'), started as unknown as Socket);
    expect(started).toMatchObject({ written: '', destroyed: true });

    const notStarted = new FakeSocket();
    notStarted._httpMessage = { headersSent: false };
    onClientError(parserError('HPE_INVALID_METHOD'), notStarted as unknown as Socket);
    expect(notStarted.written).not.toBe('');
  });

  it('answers once: later errors of the failed parser are ignored, a timeout ends the drain', () => {
    const socket = new FakeSocket();
    onClientError(parserError('HPE_INVALID_METHOD'), socket as unknown as Socket);
    const written = socket.written;
    onClientError(parserError('HPE_INVALID_METHOD'), socket as unknown as Socket);
    expect(socket.written).toBe(written);
    expect(socket.destroyed).toBe(false);
    onClientError(parserError('ERR_HTTP_REQUEST_TIMEOUT'), socket as unknown as Socket);
    expect(socket.written).toBe(written);
    expect(socket.destroyed).toBe(true);
  });
});

const interval = (headersTimeoutMs: number, requestTimeoutMs: number) =>
  serverTimeouts({ headersTimeoutMs, requestTimeoutMs }).connectionsCheckingInterval;

describe('serverTimeouts', () => {
  it("gives Node's options, checked four times per shortest timeout, between 10 ms and 1 s", () => {
    expect(serverTimeouts({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 })).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      connectionsCheckingInterval: 1000,
    });
    expect(interval(200, 30_000)).toBe(50);
    expect(interval(30_000, 202)).toBe(50);
    expect(interval(4000, 4000)).toBe(1000);
    expect(interval(3996, 5000)).toBe(999);
    expect(interval(44, 5000)).toBe(11);
    expect(interval(40, 5000)).toBe(10);
    expect(interval(8, 5000)).toBe(10);
  });
});

afterEach(() => {
  vi.useRealTimers();
});

/** A socket that records what was done to it. */
class DrainingSocket extends EventEmitter {
  bytesRead = 0;
  destroyed = false;
  ended = false;
  resumed = false;
  destroy(): void {
    this.destroyed = true;
  }
  end(): void {
    this.ended = true;
  }
  resume(): void {
    this.resumed = true;
  }
  /** The client sends `bytes` more. */
  receive(bytes: number): void {
    this.bytesRead += bytes;
    this.emit('data', Buffer.alloc(0));
  }
}

describe('closeAfterAnswer', () => {
  it('ends its side and reads on, until the client closes its side', () => {
    vi.useFakeTimers();
    const socket = new DrainingSocket();
    socket.bytesRead = 500;
    closeAfterAnswer(socket as unknown as Socket);
    expect(isAnswered(socket as unknown as Socket)).toBe(true);
    expect(socket).toMatchObject({ ended: true, resumed: true, destroyed: false });
    socket.receive(DRAIN_LIMITS.maxBytes);
    expect(socket.destroyed).toBe(false);
    socket.emit('end');
    expect(socket.destroyed).toBe(true);
  });

  it('gives up once more than the drain limit arrived after the answer', () => {
    vi.useFakeTimers();
    const socket = new DrainingSocket();
    socket.bytesRead = 500;
    closeAfterAnswer(socket as unknown as Socket);
    socket.receive(DRAIN_LIMITS.maxBytes);
    expect(socket.destroyed).toBe(false);
    socket.receive(1);
    expect(socket.destroyed).toBe(true);
  });

  it('gives up after the linger time, and forgets the timer once closed', () => {
    vi.useFakeTimers();
    const lingering = new DrainingSocket();
    closeAfterAnswer(lingering as unknown as Socket);
    vi.advanceTimersByTime(DRAIN_LIMITS.lingerMs - 1);
    expect(lingering.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(lingering.destroyed).toBe(true);

    const closed = new DrainingSocket();
    closeAfterAnswer(closed as unknown as Socket);
    expect(vi.getTimerCount()).toBe(1);
    closed.emit('close');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('marks only the sockets it was given', () => {
    expect(isAnswered(new DrainingSocket() as unknown as Socket)).toBe(false);
  });
});

/** A request whose body is still arriving on `socket`. */
class FakeRequest extends EventEmitter {
  complete = false;
  unpiped = false;
  resumed = false;
  constructor(readonly socket: DrainingSocket) {
    super();
  }
  unpipe(): void {
    this.unpiped = true;
  }
  resume(): void {
    this.resumed = true;
  }
}

describe('drainRequestBody', () => {
  it('does nothing once the body has fully arrived', () => {
    const socket = new DrainingSocket();
    const request = new FakeRequest(socket);
    request.complete = true;
    drainRequestBody(request as unknown as IncomingMessage);
    expect(isAnswered(socket as unknown as Socket)).toBe(false);
    expect(request.resumed).toBe(false);
  });

  it('reads the rest of the body, and only ends its side when Node would destroy the socket', () => {
    vi.useFakeTimers();
    const socket = new DrainingSocket();
    const request = new FakeRequest(socket);
    drainRequestBody(request as unknown as IncomingMessage);
    expect(isAnswered(socket as unknown as Socket)).toBe(true);
    expect(request).toMatchObject({ unpiped: true, resumed: true });
    (socket as unknown as { destroySoon(): void }).destroySoon();
    expect(socket).toMatchObject({ ended: true, destroyed: false });
    request.emit('data', Buffer.alloc(DRAIN_LIMITS.maxBytes));
    expect(socket.destroyed).toBe(false);
    request.emit('data', Buffer.alloc(1));
    expect(socket.destroyed).toBe(true);
  });

  it('gives up after the linger time, and forgets the timer once closed', () => {
    vi.useFakeTimers();
    const socket = new DrainingSocket();
    drainRequestBody(new FakeRequest(socket) as unknown as IncomingMessage);
    vi.advanceTimersByTime(DRAIN_LIMITS.lingerMs - 1);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);

    const closed = new DrainingSocket();
    drainRequestBody(new FakeRequest(closed) as unknown as IncomingMessage);
    expect(vi.getTimerCount()).toBe(1);
    closed.emit('close');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the linger timer', () => {
  it('never keeps the process alive', () => {
    vi.useFakeTimers();
    const spy = vi.spyOn(globalThis, 'setTimeout');
    closeAfterAnswer(new DrainingSocket() as unknown as Socket);
    drainRequestBody(new FakeRequest(new DrainingSocket()) as unknown as IncomingMessage);
    const timers = spy.mock.results.map((result) => result.value as NodeJS.Timeout);
    spy.mockRestore();
    expect(timers).toHaveLength(2);
    for (const timer of timers) expect(timer.hasRef()).toBe(false);
  });
});
