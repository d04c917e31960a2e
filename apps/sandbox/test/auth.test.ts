import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { REFS, TOKENS, call, expectError, inspect, login, rename, start, StreamReader } from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await inspect(sandbox, '/reset', 'POST');
});

const streamPath = `/browsers/${REFS.browsers.main.id}/logs/stream?source=path&path=${encodeURIComponent(REFS.browsers.main.path)}`;

describe('bearer tokens', () => {
  it('answers 401 without a token, with an unknown token and with another scheme', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer sk_not_a_token' },
      { authorization: `Basic ${TOKENS.owner}` },
      { authorization: 'Bearer' },
    ];
    for (const headers of cases) {
      const r = await call(sandbox, 'POST', `/auth/connections/${REFS.authConnections.withoutCredentials}/login`, {
        token: null,
        headers,
      });
      const body = expectError(r, 401, 'unauthorized');
      // The token never comes back in an error.
      expect(JSON.stringify(body)).not.toContain('sk_');
    }
    expectError(await rename(sandbox, REFS.profiles.defaultProject.id, { name: 'x' }, null), 401, 'unauthorized');
    expectError(await call(sandbox, 'GET', streamPath, { token: null }), 401, 'unauthorized');
  });

  it('checks the token before the body: an unauthenticated bad body is still 401', async () => {
    const r = await call(sandbox, 'PATCH', `/profiles/${REFS.profiles.defaultProject.id}`, {
      token: 'nope',
      raw: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expectError(r, 401, 'unauthorized');
  });

  it('accepts the scheme in any case', async () => {
    const r = await call(sandbox, 'GET', streamPath, {
      token: null,
      headers: { authorization: `bearer ${TOKENS.owner}` },
    });
    expect(r.status).toBe(200);
  });
});

describe('roles and plans', () => {
  it('gives a read-only token 403 on login and rename but lets it stream logs', async () => {
    expectError(await login(sandbox, REFS.authConnections.withoutCredentials, {}, TOKENS.readonly), 403, 'forbidden');
    expectError(
      await rename(sandbox, REFS.profiles.defaultProject.id, { name: 'ro' }, TOKENS.readonly),
      403,
      'forbidden',
    );
    const stream = await call(sandbox, 'GET', streamPath, { token: TOKENS.readonly });
    expect(stream.status).toBe(200);
    // Nothing changed behind the 403s.
    expectError(await inspect(sandbox, `/flows/${REFS.authConnections.withoutCredentials}`), 404, 'not_found');
  });

  it('gives 403 when the plan lacks managed auth, and allows what the plan has', async () => {
    expectError(await login(sandbox, REFS.authConnections.freePlan, {}, TOKENS.freePlan), 403, 'forbidden');
    const r = await rename(sandbox, 'anything', { name: 'x' }, TOKENS.freePlan);
    expectError(r, 404, 'not_found');
  });
});

describe('projects', () => {
  it('answers 404 projects_disabled to every operation of an organisation without projects', async () => {
    const t = TOKENS.projectsDisabled;
    expectError(await login(sandbox, REFS.authConnections.withoutCredentials, {}, t), 404, 'projects_disabled');
    expectError(await rename(sandbox, REFS.profiles.defaultProject.id, { name: 'x' }, t), 404, 'projects_disabled');
    expectError(await call(sandbox, 'GET', streamPath, { token: t }), 404, 'projects_disabled');
  });

  it('hides the resources of other projects (404), and shows them to their own project', async () => {
    const other = TOKENS.otherProject;
    expectError(await login(sandbox, REFS.authConnections.withoutCredentials, {}, other), 404, 'not_found');
    expectError(await rename(sandbox, REFS.profiles.defaultProject.id, { name: 'x' }, other), 404, 'not_found');
    expectError(await rename(sandbox, REFS.profiles.unscoped.id, { name: 'x' }, other), 404, 'not_found');
    expectError(await call(sandbox, 'GET', streamPath, { token: other }), 404, 'not_found');

    expectError(await login(sandbox, REFS.authConnections.otherProject, {}), 404, 'not_found');
    expectError(await rename(sandbox, REFS.profiles.otherProject.id, { name: 'x' }), 404, 'not_found');
    expect((await login(sandbox, REFS.authConnections.otherProject, {}, other)).status).toBe(200);
    expect((await rename(sandbox, REFS.profiles.otherProject.id, { name: 'x' }, other)).status).toBe(200);
    const reader = await StreamReader.open(
      sandbox,
      REFS.browsers.otherProject.id,
      `source=path&path=${encodeURIComponent(REFS.browsers.otherProject.path)}`,
      { token: other },
    );
    expect(reader.response.status).toBe(200);
    await reader.finished();
    expect(reader.events.map((e) => e.id)).toEqual([expect.stringMatching(/^[0-9a-z]+-1$/)]);
  });
});
