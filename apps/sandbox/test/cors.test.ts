// CORS is opt-in: off by default (no headers, no preflight), and with `corsOrigins` only the
// origins listed may call the API from a page; preflights are answered before authentication.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli-args.js';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from '../src/start-sandbox.js';
import { operations } from '@browser-cloud/openapi-document';
import { loadSandboxDocument, type RunningSandbox } from '../src/index.js';
import { call, REFS, start } from './helpers.js';

const PAGE = 'http://127.0.0.1:5173';
const OTHER = 'http://127.0.0.1:9999';
const renamePath = `/profiles/${REFS.profiles.unnamed.id}`;

function preflight(sandbox: RunningSandbox, origin: string, method = 'PATCH') {
  return fetch(`${sandbox.url}${renamePath}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers':
        method === 'GET' ? 'authorization,cache-control,last-event-id' : 'authorization,content-type',
    },
  });
}

describe('without corsOrigins (the default)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await start();
  });
  afterAll(() => sandbox.close());

  it('sends no CORS header, even to a request with an Origin', async () => {
    const answer = await call(sandbox, 'PATCH', renamePath, { body: { name: 'cors-off' }, headers: { origin: PAGE } });
    expect(answer.status).toBe(200);
    expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('answers no preflight: OPTIONS is a method no operation has (405)', async () => {
    const answer = await preflight(sandbox, PAGE);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(await answer.json()).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('with corsOrigins', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await start({ corsOrigins: [PAGE] });
  });
  afterAll(() => sandbox.close());

  it('answers a preflight of a listed origin before authentication, with what the client sends', async () => {
    const answer = await preflight(sandbox, PAGE);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    // The methods of the document's operations.
    const methods = new Set([...operations(loadSandboxDocument())].map((o) => o.method.toUpperCase()));
    expect(answer.headers.get('access-control-allow-methods')?.split(/,\s*/).sort()).toEqual([...methods].sort());
    expect(answer.headers.get('access-control-allow-headers')?.split(/,\s*/)).toEqual([...CORS_ALLOWED_HEADERS]);
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('lets the page read the answer and the headers the client reads, errors included', async () => {
    const renamed = await call(sandbox, 'PATCH', renamePath, { body: { name: 'cors-on' }, headers: { origin: PAGE } });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(renamed.headers.get('access-control-expose-headers')?.split(/,\s*/)).toEqual([...CORS_EXPOSED_HEADERS]);
    const conflict = await call(sandbox, 'PATCH', `/profiles/${REFS.profiles.defaultProject.id}`, {
      body: { name: 'cors-on' },
      headers: { origin: PAGE },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get('access-control-allow-origin')).toBe(PAGE);
    const refused = await call(sandbox, 'PATCH', renamePath, {
      token: null,
      body: { name: 'x' },
      headers: { origin: PAGE },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PAGE);
  });

  it("lets the page read the log stream, which is written outside Fastify's reply", async () => {
    const allowed = await preflight(sandbox, PAGE, 'GET');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('cache-control');
    const { main } = REFS.browsers;
    const answer = await fetch(`${sandbox.url}/browsers/${main.id}/logs/stream?source=path&path=${main.path}`, {
      headers: { origin: PAGE, authorization: `Bearer ${REFS.tokens.owner}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-request-id');
    expect(await answer.text()).toContain('data: ');
  });

  it('gives an origin that is not listed nothing to go on', async () => {
    const answer = await preflight(sandbox, OTHER);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const renamed = await call(sandbox, 'PATCH', renamePath, {
      body: { name: 'cors-other' },
      headers: { origin: OTHER },
    });
    expect(renamed.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the corsOrigins option', () => {
  it('takes origins only: no path, no wildcard, no other scheme', async () => {
    for (const origin of ['*', 'http://127.0.0.1:5173/', 'http://127.0.0.1:5173/app', 'file:///x', '127.0.0.1:5173']) {
      await expect(start({ corsOrigins: [origin] })).rejects.toThrow(/corsOrigins: .* is not an origin/);
    }
  });

  it('is --cors-origin on the command line, repeatable', () => {
    expect(parseCliArgs(['--cors-origin', PAGE, `--cors-origin=${OTHER}`], {})).toEqual({
      help: false,
      options: { quiet: false, corsOrigins: [PAGE, OTHER] },
    });
  });
});
