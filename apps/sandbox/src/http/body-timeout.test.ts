import { EventEmitter } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error.js';
import { bodyTimeout } from './body-timeout.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Runs the hook on a body the test writes to; `guarded` is what Fastify would read. */
async function guard(ms: number, complete = false) {
  const payload = new PassThrough();
  const replyRaw = new EventEmitter();
  const request = { raw: { complete } } as unknown as FastifyRequest;
  const reply = { raw: replyRaw } as unknown as FastifyReply;
  const guarded = await bodyTimeout(ms)(request, reply, payload);
  const received: string[] = [];
  let failure: unknown;
  let ended = false;
  guarded.on('data', (chunk: Buffer) => received.push(chunk.toString()));
  guarded.on('error', (error) => {
    failure = error;
  });
  guarded.on('end', () => {
    ended = true;
  });
  return {
    payload,
    guarded,
    replyRaw,
    received,
    get failure() {
      return failure;
    },
    get ended() {
      return ended;
    },
  };
}

describe('bodyTimeout', () => {
  it('leaves a body that has fully arrived alone', async () => {
    const payload = new PassThrough();
    const request = { raw: { complete: true } } as unknown as FastifyRequest;
    const reply = { raw: new EventEmitter() } as unknown as FastifyReply;
    expect(await bodyTimeout(100)(request, reply, payload as Readable)).toBe(payload);
  });

  it('passes a body whose pieces keep coming, however long it takes in all', async () => {
    vi.useFakeTimers();
    const body = await guard(100);
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(99);
      body.payload.write(`${i}`);
    }
    body.payload.end();
    await vi.advanceTimersByTimeAsync(0);
    // The end of the body stops the clock: no timer is left to fire.
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(body.received.join('')).toBe('01234');
    expect(body.ended).toBe(true);
    expect(body.failure).toBeUndefined();
  });

  it('fails a body that pauses for the timeout with 408 request_timeout', async () => {
    vi.useFakeTimers();
    const body = await guard(100);
    body.payload.write('a');
    await vi.advanceTimersByTimeAsync(99);
    expect(body.failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(body.failure).toBeInstanceOf(ApiError);
    expect(body.failure).toMatchObject({
      statusCode: 408,
      code: 'request_timeout',
      message: 'the request body stalled: nothing arrived for 100 ms',
    });
    expect(body.guarded.destroyed).toBe(true);
  });

  it('times the wait for the first piece too', async () => {
    vi.useFakeTimers();
    const body = await guard(50);
    await vi.advanceTimersByTimeAsync(50);
    expect(body.failure).toMatchObject({ statusCode: 408 });
  });

  it('stops waiting once an answer went out before the body was read', async () => {
    vi.useFakeTimers();
    const body = await guard(100);
    expect(vi.getTimerCount()).toBe(1);
    body.replyRaw.emit('finish');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(body.failure).toBeUndefined();
  });

  it('stops waiting when the reader lets go of the body', async () => {
    vi.useFakeTimers();
    const body = await guard(100);
    body.guarded.destroy();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes on an error of the body itself', async () => {
    vi.useFakeTimers();
    const body = await guard(100);
    const error = new Error('reset');
    body.payload.destroy(error);
    await vi.advanceTimersByTimeAsync(0);
    expect(body.failure).toBe(error);
  });
});
