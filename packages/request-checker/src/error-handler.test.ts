import { findOperation, type OpenApiDocument } from '@browser-cloud/openapi-document';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiError, conflict } from './api-error.js';
import { handleError, responseCheck } from './error-handler.js';

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

const json = (ref: string) => ({ 'application/json': { schema: { $ref: ref } } });

/** A document of the test's own: the rules under test, whatever the repository's document says. */
const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 't', version: '1.0.0' },
  paths: {
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'getThing',
        responses: {
          '200': { description: 'ok', content: json('#/components/schemas/Thing') },
          '404': { $ref: '#/components/responses/Problem' },
          '409': { description: 'taken', content: json('#/components/schemas/Conflict') },
        },
      },
      delete: { operationId: 'deleteThing', responses: { '204': { description: 'gone' } } },
    },
    '/stream': {
      get: {
        operationId: 'streamThings',
        responses: {
          '200': { description: 'events', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          name: { type: ['string', 'null'] },
          created_at: { type: 'string', format: 'date-time' },
          url: { type: 'string', format: 'uri' },
        },
        required: ['id', 'created_at'],
        additionalProperties: false,
      },
      Conflict: {
        type: 'object',
        properties: { code: { const: 'conflict' }, message: { type: 'string' } },
        required: ['code', 'message'],
        additionalProperties: false,
      },
      Error: {
        type: 'object',
        properties: { code: { type: 'string' }, message: { type: 'string' } },
        required: ['code', 'message'],
        additionalProperties: false,
      },
    },
    responses: { Problem: { description: 'not found', content: json('#/components/schemas/Error') } },
  },
};
const hook = responseCheck(document);
const thing = { id: 't_1', created_at: '2026-01-01T00:00:00Z', name: null };

async function appReturning(status: number, body: unknown, operationId = 'getThing') {
  const app = Fastify();
  app.addHook('onSend', hook);
  const operation = findOperation(document, operationId);
  app.get('/op', { config: { operation } }, async (_request, reply) => reply.code(status).send(body));
  app.get('/own', async () => ({ anything: true }));
  await app.ready();
  return app;
}

async function violation(status: number, body: unknown, operationId?: string): Promise<string> {
  const r = await (await appReturning(status, body, operationId)).inject('/op');
  expect(r.statusCode).toBe(500);
  const sent = r.json();
  expect(sent).toMatchObject({ code: 'internal_error', inner_error: { code: 'response_violation' } });
  return String(sent.inner_error.message);
}

describe('responseCheck', () => {
  it('passes bodies that match the response the operation documents for their status', async () => {
    expect((await (await appReturning(200, thing)).inject('/op')).statusCode).toBe(200);
    expect((await (await appReturning(404, { code: 'not_found', message: 'x' })).inject('/op')).statusCode).toBe(404);
    expect((await (await appReturning(409, { code: 'conflict', message: 'x' })).inject('/op')).statusCode).toBe(409);
  });

  it('asserts formats: the why names the field and the format', async () => {
    expect(await violation(200, { ...thing, created_at: 'yesterday' })).toBe(
      'created_at: must match format "date-time"',
    );
    expect(await violation(200, { ...thing, url: 'not a url' })).toBe('url: must match format "uri"');
  });

  it('names every violation of a body, with real messages', async () => {
    const why = await violation(200, { name: 7, created_at: 'yesterday', extra: 1 });
    expect(why.split('; ').sort()).toEqual([
      'created_at: must match format "date-time"',
      'extra: is not a known property',
      'id: is required',
      'name: must be string or null',
    ]);
    expect(why).not.toMatch(/undefined/);
  });

  it('checks a documented status against its own schema, followed through components/responses', async () => {
    expect(await violation(409, { code: 'not_found', message: 'x' })).toBe('code: must be "conflict"');
    expect(await violation(404, { error: 'Not Found' })).toMatch(/error: is not a known property/);
  });

  it('checks a status the operation does not document against Error', async () => {
    const why = await violation(413, { error: 'Too Large' });
    expect(why.split('; ').sort()).toEqual([
      'code: is required',
      'error: is not a known property',
      'message: is required',
    ]);
  });

  it('leaves routes outside the API, and answers without a JSON schema, alone', async () => {
    expect((await (await appReturning(200, {})).inject('/own')).json()).toEqual({ anything: true });
    expect((await (await appReturning(200, { not: 'an event' }, 'streamThings')).inject('/op')).statusCode).toBe(200);
  });

  it('treats a JSON body that does not parse as a violation of the root', async () => {
    const app = Fastify();
    app.addHook('onSend', hook);
    app.get('/op', { config: { operation: findOperation(document, 'getThing') } }, async (_request, reply) =>
      reply.code(200).header('content-type', 'application/json').send('{oops'),
    );
    const r = await app.inject('/op');
    expect(r.statusCode).toBe(500);
    expect(r.json()).toStrictEqual({
      code: 'internal_error',
      message: 'the sandbox produced a response that violates the OpenAPI document',
      inner_error: { code: 'response_violation', message: '(root): must be object' },
    });
  });

  it('leaves bodies that are not JSON text alone', async () => {
    const app = Fastify();
    app.addHook('onSend', hook);
    const config = { operation: findOperation(document, 'getThing') };
    app.get('/text', { config }, async (_request, reply) =>
      reply.code(200).header('content-type', 'text/plain').send('{oops'),
    );
    app.get('/buffer', { config }, async (_request, reply) =>
      reply.code(200).header('content-type', 'application/json').send(Buffer.from('{oops')),
    );
    expect((await app.inject('/text')).statusCode).toBe(200);
    expect((await app.inject('/buffer')).statusCode).toBe(200);
  });

  it('bounds the why to 500 characters', async () => {
    const fields = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}`, 1]));
    const why = await violation(200, { ...thing, ...fields });
    expect(why).toHaveLength(500);
    expect(why.startsWith('field_0: is not a known property; ')).toBe(true);
  });

  it('logs each violation with the operation and status', async () => {
    const logged: unknown[] = [];
    const app = Fastify();
    app.addHook('onSend', hook);
    app.get('/op', { config: { operation: findOperation(document, 'getThing') } }, async (request, reply) => {
      request.log.error = ((...args: unknown[]) => logged.push(args)) as typeof request.log.error;
      return reply.code(200).send({ ...thing, created_at: 'yesterday' });
    });
    await app.inject('/op');
    expect(logged).toEqual([
      [
        { operationId: 'getThing', status: 200, why: 'created_at: must match format "date-time"' },
        'response violates the OpenAPI document',
      ],
    ]);
  });
});
