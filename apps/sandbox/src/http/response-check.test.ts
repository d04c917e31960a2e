import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../fixture/types.js';
import { loadOpenApiDocument, type ResponseObject } from '@browser-cloud/openapi-document';
import { responseCheck } from './response-check.js';

const document = loadOpenApiDocument();
const hook = responseCheck(document);

const profile = { id: 'prof_1', created_at: '2026-01-01T00:00:00Z', name: null };
const loginResponse = {
  id: 'ac_1',
  flow_type: 'LOGIN',
  hosted_url: 'https://example.com/hosted/1',
  flow_expires_at: '2026-01-01T00:10:00Z',
};

async function appReturning(status: number, body: unknown, operationId: OperationId = 'renameProfile', check = hook) {
  const app = Fastify();
  app.addHook('onSend', check);
  app.get('/op', { config: { operationId } }, async (_request, reply) => reply.code(status).send(body));
  app.get('/own', async () => ({ anything: true }));
  await app.ready();
  return app;
}

async function violation(status: number, body: unknown, operationId?: OperationId): Promise<string> {
  const r = await (await appReturning(status, body, operationId)).inject('/op');
  expect(r.statusCode).toBe(500);
  const sent = r.json();
  expect(sent).toMatchObject({ code: 'internal_error', inner_error: { code: 'response_violation' } });
  return String(sent.inner_error.message);
}

describe('responseCheck', () => {
  it('passes bodies that match the document', async () => {
    expect((await (await appReturning(200, profile)).inject('/op')).statusCode).toBe(200);
    expect((await (await appReturning(200, loginResponse, 'loginAuthConnection')).inject('/op')).statusCode).toBe(200);
    expect((await (await appReturning(404, { code: 'not_found', message: 'x' })).inject('/op')).statusCode).toBe(404);
  });

  it('asserts formats: a date-time that is not one is caught, and the why names the field and the format', async () => {
    const why = await violation(200, { ...profile, created_at: 'yesterday' });
    expect(why).toBe('created_at: must match format "date-time"');
  });

  it('asserts the uri format of a login response', async () => {
    const why = await violation(200, { ...loginResponse, hosted_url: 'not a url' }, 'loginAuthConnection');
    expect(why).toBe('hosted_url: must match format "uri"');
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

  it('checks every other status against Error', async () => {
    const why = await violation(409, { error: 'Conflict' });
    expect(why.split('; ').sort()).toEqual([
      'code: is required',
      'error: is not a known property',
      'message: is required',
    ]);
  });

  it('leaves routes outside the API, and operations without a JSON 200, alone', async () => {
    expect((await (await appReturning(200, {})).inject('/own')).json()).toEqual({ anything: true });
    expect(
      (await (await appReturning(200, { not: 'a log event' }, 'streamBrowserLogs')).inject('/op')).statusCode,
    ).toBe(200);
  });

  it('follows a 200 response that is a $ref to components/responses', async () => {
    const copy = structuredClone(document);
    const patch = copy.paths?.['/profiles/{id_or_name}']?.['patch'] as { responses: Record<string, unknown> };
    copy.components = {
      ...copy.components,
      responses: { ...copy.components?.responses, Renamed: patch.responses['200'] as ResponseObject },
    };
    patch.responses['200'] = { $ref: '#/components/responses/Renamed' };
    const app = await appReturning(200, { ...profile, created_at: 'yesterday' }, 'renameProfile', responseCheck(copy));
    expect((await app.inject('/op')).statusCode).toBe(500);

    patch.responses['200'] = { $ref: '#/components/responses/Missing' };
    expect(() => responseCheck(copy)).toThrow(/"#\/components\/responses\/Missing" does not resolve/);
  });

  it('treats a JSON body that does not parse as a violation of the root', async () => {
    const app = Fastify();
    app.addHook('onSend', hook);
    app.get('/op', { config: { operationId: 'renameProfile' } }, async (_request, reply) =>
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
    app.get('/text', { config: { operationId: 'renameProfile' } }, async (_request, reply) =>
      reply.code(200).header('content-type', 'text/plain').send('{oops'),
    );
    app.get('/buffer', { config: { operationId: 'renameProfile' } }, async (_request, reply) =>
      reply.code(200).header('content-type', 'application/json').send(Buffer.from('{oops')),
    );
    expect((await app.inject('/text')).statusCode).toBe(200);
    expect((await app.inject('/buffer')).statusCode).toBe(200);
  });

  it('bounds the why to 500 characters', async () => {
    const fields = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}`, 1]));
    const why = await violation(200, { ...profile, ...fields });
    expect(why).toHaveLength(500);
    expect(why.startsWith('field_0: is not a known property; ')).toBe(true);
  });

  it('logs each violation with the operation and status', async () => {
    const logged: unknown[] = [];
    const app = Fastify();
    app.addHook('onSend', hook);
    app.get('/op', { config: { operationId: 'renameProfile' } }, async (request, reply) => {
      request.log.error = ((...args: unknown[]) => logged.push(args)) as typeof request.log.error;
      return reply.code(200).send({ ...profile, created_at: 'yesterday' });
    });
    await app.inject('/op');
    expect(logged).toEqual([
      [
        { operationId: 'renameProfile', status: 200, why: 'created_at: must match format "date-time"' },
        'response violates the OpenAPI document',
      ],
    ]);
  });
});
