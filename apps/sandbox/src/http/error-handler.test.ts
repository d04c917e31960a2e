import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiError, conflict } from './api-error.js';
import { handleError } from './error-handler.js';

/** What `handleError` did to the reply: the status, headers and body it sent, or whether it ended a raw stream. */
interface Outcome {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  ended: boolean;
  logged: unknown[];
}

function handle(
  error: Error,
  options: { contentType?: string; sent?: boolean; headersSent?: boolean; writableEnded?: boolean } = {},
): Outcome {
  const outcome: Outcome = { ended: false, logged: [] };
  const reply = {
    sent: options.sent ?? false,
    raw: {
      headersSent: options.headersSent ?? false,
      writableEnded: options.writableEnded ?? false,
      end: () => {
        outcome.ended = true;
      },
    },
    code(status: number) {
      outcome.status = status;
      return reply;
    },
    headers(headers: Record<string, string>) {
      outcome.headers = headers;
      return reply;
    },
    send(body: unknown) {
      outcome.body = body;
      return reply;
    },
  };
  const request = {
    headers: options.contentType === undefined ? {} : { 'content-type': options.contentType },
    log: { error: (...args: unknown[]) => outcome.logged.push(args) },
    routeOptions: { bodyLimit: 4096 },
  };
  handleError(error, request as unknown as FastifyRequest, reply as unknown as FastifyReply);
  return outcome;
}

const fastifyError = (statusCode: number | undefined, message: string, extra: object = {}): FastifyError =>
  Object.assign(new Error(message), statusCode === undefined ? {} : { statusCode }, extra) as FastifyError;

describe('handleError', () => {
  it('answers an ApiError with its status, headers and body', () => {
    const outcome = handle(conflict('taken'));
    expect(outcome).toMatchObject({
      status: 409,
      headers: { 'x-should-retry': 'false' },
      body: { code: 'conflict', message: 'taken' },
    });
  });

  it('only ends a response that already started, whatever the error', () => {
    for (const started of [{ sent: true }, { headersSent: true }]) {
      const outcome = handle(new ApiError({ status: 400, body: { code: 'bad_request', message: 'late' } }), started);
      expect(outcome).toEqual({ ended: true, logged: [] });
    }
    expect(handle(new Error('boom'), { headersSent: true, writableEnded: true })).toEqual({ ended: false, logged: [] });
  });

  it('answers 413 payload_too_large', () => {
    expect(handle(fastifyError(413, 'Request body is too large'))).toMatchObject({
      status: 413,
      body: { code: 'payload_too_large', message: 'the request body is larger than 4096 bytes' },
    });
  });

  it('answers an answer its response schema refuses with a 500 response_violation, and logs it', () => {
    const error = Object.assign(new Error('"owner_id" is required!'), { serialization: {} });
    const outcome = handle(error);
    expect(outcome).toMatchObject({
      status: 500,
      body: {
        code: 'internal_error',
        message: 'the sandbox produced a response that violates the OpenAPI document',
        inner_error: { code: 'response_violation', message: '"owner_id" is required!' },
      },
    });
    expect(outcome.logged).toEqual([[{ err: error }, 'response violates the OpenAPI document']]);
  });

  it('answers another 4xx of Fastify with its status and message as the detail', () => {
    for (const status of [400, 404, 499]) {
      expect(handle(fastifyError(status, 'Body cannot be empty'))).toEqual({
        status,
        body: {
          code: 'bad_request',
          message: 'the request is malformed',
          details: [{ code: 'invalid_input', message: 'Body cannot be empty' }],
        },
        ended: false,
        logged: [],
      });
    }
  });

  it('answers anything else with a 500 that reveals nothing, and logs the error', () => {
    for (const status of [undefined, 399, 500, 503]) {
      const error = fastifyError(status, 'secret detail');
      const outcome = handle(error);
      expect(outcome.status).toBe(500);
      expect(outcome.body).toStrictEqual({ code: 'internal_error', message: 'an internal error occurred' });
      expect(outcome.logged).toEqual([[{ err: error }, 'unexpected error']]);
    }
  });
});
