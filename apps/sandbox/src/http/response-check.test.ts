import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { checkResponse } from './response-check.js';

async function appReturning(status: number, body: unknown) {
  const app = Fastify();
  app.addHook('onSend', checkResponse);
  app.get('/op', { config: { operationId: 'renameProfile' } }, async (_request, reply) => reply.code(status).send(body));
  app.get('/own', async () => ({ anything: true }));
  await app.ready();
  return app;
}

describe('checkResponse', () => {
  it('passes bodies that match the document', async () => {
    const app = await appReturning(200, { id: 'p', created_at: '2026-01-01T00:00:00Z', name: null });
    expect((await app.inject('/op')).statusCode).toBe(200);
    const error = await appReturning(404, { code: 'not_found', message: 'x' });
    expect((await error.inject('/op')).statusCode).toBe(404);
  });

  it('turns a violating body into a 500 that names the violation', async () => {
    const app = await appReturning(200, { id: 'p', created_at: 'yesterday', extra: 1 });
    const r = await app.inject('/op');
    expect(r.statusCode).toBe(500);
    expect(r.json()).toMatchObject({ code: 'internal_error', inner_error: { code: 'response_violation' } });
    const badError = await appReturning(409, { error: 'Conflict' });
    expect((await badError.inject('/op')).statusCode).toBe(500);
  });

  it('leaves routes outside the API alone', async () => {
    const app = await appReturning(200, {});
    expect((await app.inject('/own')).json()).toEqual({ anything: true });
  });
});
