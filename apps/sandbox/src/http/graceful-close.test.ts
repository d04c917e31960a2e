import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeAfterAnswer, DRAIN_LIMITS, drainRequestBody, isAnswered } from './graceful-close.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A socket that records what was done to it. */
class FakeSocket extends EventEmitter {
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
    const socket = new FakeSocket();
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
    const socket = new FakeSocket();
    socket.bytesRead = 500;
    closeAfterAnswer(socket as unknown as Socket);
    socket.receive(DRAIN_LIMITS.maxBytes);
    expect(socket.destroyed).toBe(false);
    socket.receive(1);
    expect(socket.destroyed).toBe(true);
  });

  it('gives up after the linger time, and forgets the timer once closed', () => {
    vi.useFakeTimers();
    const lingering = new FakeSocket();
    closeAfterAnswer(lingering as unknown as Socket);
    vi.advanceTimersByTime(DRAIN_LIMITS.lingerMs - 1);
    expect(lingering.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(lingering.destroyed).toBe(true);

    const closed = new FakeSocket();
    closeAfterAnswer(closed as unknown as Socket);
    expect(vi.getTimerCount()).toBe(1);
    closed.emit('close');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('marks only the sockets it was given', () => {
    expect(isAnswered(new FakeSocket() as unknown as Socket)).toBe(false);
  });
});

/** A request whose body is still arriving on `socket`. */
class FakeRequest extends EventEmitter {
  complete = false;
  unpiped = false;
  resumed = false;
  constructor(readonly socket: FakeSocket) {
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
    const socket = new FakeSocket();
    const request = new FakeRequest(socket);
    request.complete = true;
    drainRequestBody(request as unknown as IncomingMessage);
    expect(isAnswered(socket as unknown as Socket)).toBe(false);
    expect(request.resumed).toBe(false);
  });

  it('reads the rest of the body, and only ends its side when Node would destroy the socket', () => {
    vi.useFakeTimers();
    const socket = new FakeSocket();
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
    const socket = new FakeSocket();
    drainRequestBody(new FakeRequest(socket) as unknown as IncomingMessage);
    vi.advanceTimersByTime(DRAIN_LIMITS.lingerMs - 1);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.destroyed).toBe(true);

    const closed = new FakeSocket();
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
    closeAfterAnswer(new FakeSocket() as unknown as Socket);
    drainRequestBody(new FakeRequest(new FakeSocket()) as unknown as IncomingMessage);
    const timers = spy.mock.results.map((result) => result.value as NodeJS.Timeout);
    spy.mockRestore();
    expect(timers).toHaveLength(2);
    for (const timer of timers) expect(timer.hasRef()).toBe(false);
  });
});
