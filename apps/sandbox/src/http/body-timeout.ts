import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';

/**
 * A `preParsing` hook that fails a body which pauses for longer than `ms` between two pieces
 * with 408 `request_timeout`: a client that stalls mid-body does not hold the connection until
 * the whole request's timeout.
 */
export function bodyTimeout(ms: number) {
  return async function guardBody(request: FastifyRequest, reply: FastifyReply, payload: Readable): Promise<Readable> {
    if (request.raw.complete) return payload;
    const guarded = new PassThrough();
    let timer: NodeJS.Timeout | undefined;
    const stop = (): void => clearTimeout(timer);
    const arm = (): void => {
      stop();
      timer = setTimeout(() => {
        payload.unpipe(guarded);
        guarded.destroy(new ApiError(408, 'request_timeout', `the request body stalled: nothing arrived for ${ms} ms`));
      }, ms);
    };
    payload.on('data', arm);
    payload.once('end', stop);
    payload.once('error', (error) => guarded.destroy(error));
    guarded.once('close', stop);
    // An answer sent before the body was read (401, 413) ends the wait for it.
    reply.raw.once('finish', stop);
    payload.pipe(guarded);
    arm();
    return guarded;
  };
}
