import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { call, REFS, start, TOKENS } from './helpers.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('the request log', () => {
  it("is Fastify's JSON entries: method, path (no query) and status, never a header or the token", async () => {
    const written: string[] = [];
    sandbox = await start({ quiet: false, logStream: { write: (text) => void written.push(text) } });
    const renamed = await call(sandbox, 'PATCH', `/profiles/${REFS.profiles.defaultProject.id}`, {
      body: { name: 'log-line' },
    });
    expect(renamed.status).toBe(200);
    expect((await call(sandbox, 'PATCH', '/profiles/p?x=1', { token: null, body: { name: 'x' } })).status).toBe(401);
    const entries = written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['reqId'] !== undefined);
    expect(entries.map((entry) => [entry['msg'], entry['req'] ?? entry['res']])).toEqual([
      ['incoming request', { method: 'PATCH', url: `/profiles/${REFS.profiles.defaultProject.id}` }],
      ['request completed', { statusCode: 200 }],
      ['incoming request', { method: 'PATCH', url: '/profiles/p' }],
      ['request completed', { statusCode: 401 }],
    ]);
    expect(entries.at(-1)?.['reqId']).toBe(entries.at(-2)?.['reqId']);
    expect(written.join('')).not.toContain(TOKENS.owner);
  });
});
