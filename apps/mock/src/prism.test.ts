import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import { afterEach, describe, expect, it } from 'vitest';
import { MockStartError } from './mock-start-error.js';
import { locatePrism, startPrism } from './prism.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

describe('startPrism', () => {
  it('finds the installed Prism', () => {
    expect(existsSync(locatePrism())).toBe(true);
  });

  it('says "run npm ci" when Prism is not installed', async () => {
    const error = await startPrism({ prismBin: '/nowhere/prism-cli/dist/index.js' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockStartError);
    expect(error).toMatchObject({
      reason: 'prism-missing',
      message: 'Prism is not installed (/nowhere/prism-cli/dist/index.js not found): run npm ci',
    });
  });

  it('binds a port the system picks, and answers on the one Prism names', async () => {
    const prism = await startPrism();
    try {
      expect(Number(new URL(prism.url).port)).toBeGreaterThan(0);
      expect(prism.output()).toContain(`Prism is listening on ${prism.url}`);
      const answer = await fetch(`${prism.url}/__not-in-the-document`);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      await answer.body?.cancel();
    } finally {
      await prism.stop();
    }
  });

  it('answers a value whose schema has no type (oneOf members, an enum), which the front has checked', async () => {
    const typeless = [
      { name: 'since', in: 'query', schema: { oneOf: [{ type: 'boolean' }, { type: 'integer', minimum: 0 }] } },
      { name: 'level', in: 'query', schema: { enum: [1, 2] } },
      { name: 'page', in: 'query', schema: { type: 'integer' } },
    ];
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/zz-things': {
          get: {
            operationId: 'listZzThings',
            parameters: typeless,
            responses: { '200': { description: 'ok', content: { 'application/json': { example: { ok: true } } } } },
          },
        },
      },
    } as unknown as OpenApiDocument;
    const prism = await startPrism({ document });
    try {
      for (const search of ['since=true', 'since=3&level=2', 'page=1']) {
        const answer = await fetch(`${prism.url}/zz-things?${search}`);
        expect(answer.status, search).toBe(200);
        await answer.body?.cancel();
      }
      // Typed parameters are still Prism's to check.
      const refused = await fetch(`${prism.url}/zz-things?page=one`);
      expect(refused.status).not.toBe(200);
      await refused.body?.cancel();
    } finally {
      await prism.stop();
    }
  });

  it('is not fooled by another server on its port: any HTTP answer is not ready', async () => {
    const other = createServer((_req, res) => res.end('hello'));
    other.listen(0, '127.0.0.1');
    await once(other, 'listening');
    cleanups.push(() => other.close());
    const { port } = other.address() as { port: number };

    const error = await startPrism({ port }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockStartError);
    const { reason, message } = error as MockStartError;
    // Whichever comes first: the probe meets the other server, or Prism fails to bind.
    expect(['not-prism', 'port-in-use']).toContain(reason);
    expect(message).toMatch(
      reason === 'not-prism'
        ? `port ${port} on 127.0.0.1 is taken by another server (it answered, but not as Prism)`
        : `Prism did not start on http://127.0.0.1:${port}: its port is in use`,
    );
    expect(message).not.toContain('\n');
  });
});
