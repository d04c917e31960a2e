import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE, FixtureError, type RunningSandbox, type SandboxFixture } from '../src/index.js';
import { FLOW, REFS, appendLines, call, expectError, inspect, login, rename, start, StreamReader } from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await inspect(sandbox, '/reset', 'POST');
});

const C = REFS.authConnections;

describe('/_sandbox/flows', () => {
  it('shows a flow, completes it, and refuses to complete it twice', async () => {
    expectError(await inspect(sandbox, `/flows/${C.withCredentials}`), 404, 'not_found');
    const started = (await login(sandbox, C.withCredentials, { record_session: false })).body as Record<string, string>;
    const view = (await inspect(sandbox, `/flows/${C.withCredentials}`)).body as Record<string, unknown>;
    expect(view).toMatchObject({
      connection_id: C.withCredentials,
      flow_type: FLOW.reauth,
      status: 'in_progress',
      hosted_url: started['hosted_url'],
      handoff_code: expect.stringMatching(/^hc_[0-9a-f]+$/),
      flow_expires_at: started['flow_expires_at'],
      started_by: 'owner',
      record_session: false,
      proxy: null,
    });
    expect(JSON.stringify(view)).not.toContain('sk_');
    expect((await inspect(sandbox, `/flows/${C.withCredentials}/complete`, 'POST')).body).toMatchObject({
      status: 'completed',
    });
    expectError(await inspect(sandbox, `/flows/${C.withCredentials}/complete`, 'POST'), 409, 'conflict');
    const list = (await inspect(sandbox, '/flows')).body as { flows: unknown[] };
    expect(list.flows).toHaveLength(1);
  });

  it('expires a flow on demand, which frees the connection', async () => {
    await login(sandbox, C.withoutCredentials);
    expect((await inspect(sandbox, `/flows/${C.withoutCredentials}/expire`, 'POST')).body).toMatchObject({
      status: 'expired',
    });
    expect((await login(sandbox, C.withoutCredentials)).status).toBe(200);
  });

  it('expires flows by themselves after flowTtlMs', async () => {
    let now = 1_000_000;
    const short = await start({ flowTtlMs: 50, now: () => now });
    try {
      expect((await login(short, C.withoutCredentials)).status).toBe(200);
      expect((await login(short, C.withoutCredentials)).status).toBe(409);
      now += 50;
      expect((await inspect(short, `/flows/${C.withoutCredentials}`)).body).toMatchObject({ status: 'expired' });
      expect((await login(short, C.withoutCredentials)).status).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('serves the hosted login page, whose form completes the flow', async () => {
    const started = (await login(sandbox, C.withoutCredentials)).body as Record<string, string>;
    const page = await fetch(started['hosted_url']!);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('in_progress');
    const action = /action="([^"]+)"/.exec(html)?.[1];
    expect(action).toBeDefined();
    const done = await fetch(`${sandbox.url}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(done.status).toBe(200);
    expect((await inspect(sandbox, `/flows/${C.withoutCredentials}`)).body).toMatchObject({ status: 'completed' });
    const view = (await inspect(sandbox, `/flows/${C.withoutCredentials}`)).body as Record<string, string>;
    const live = await fetch(view['live_view_url']!);
    expect(live.status).toBe(200);
    expectError(await inspect(sandbox, '/hosted/fl_nope'), 404, 'not_found');
  });
});

describe('/_sandbox/browsers/:id/logs', () => {
  it('appends lines and reports their ids', async () => {
    const r = await appendLines(sandbox, REFS.browsers.main.id, { source: 'path', path: REFS.browsers.main.path }, [
      'a',
      'b',
    ]);
    expect(r.body).toMatchObject({
      first_id: expect.stringMatching(/^[0-9a-z]+-4$/),
      last_id: expect.stringMatching(/^[0-9a-z]+-5$/),
      length: 5,
    });
  });

  it('validates what it is given', async () => {
    expectError(
      await inspect(sandbox, `/browsers/${REFS.browsers.main.id}/logs`, 'POST', { source: 'path', lines: ['a'] }),
      400,
      'bad_request',
    );
    expectError(
      await inspect(sandbox, `/browsers/${REFS.browsers.main.id}/logs`, 'POST', {
        source: 'path',
        path: '/x',
        lines: [1],
      }),
      400,
      'bad_request',
    );
    expectError(
      await inspect(sandbox, '/browsers/br_nope/logs', 'POST', { source: 'path', path: '/x', lines: [] }),
      404,
      'not_found',
    );
  });
});

describe('/_sandbox/reset and /_sandbox/state', () => {
  it('goes back to the fixture: flows, renames and appended lines are gone', async () => {
    await login(sandbox, C.withoutCredentials);
    await inspect(sandbox, `/flows/${C.withoutCredentials}/complete`, 'POST');
    await rename(sandbox, REFS.profiles.defaultProject.id, { name: 'renamed' });
    await appendLines(sandbox, REFS.browsers.main.id, { source: 'path', path: REFS.browsers.main.path }, ['x']);
    await inspect(sandbox, '/reset', 'POST');
    const state = (await inspect(sandbox, '/state')).body as {
      flows: unknown[];
      resources: Record<string, Array<{ id: string; name: string }>>;
      browsers: Array<{ id: string; logs: Array<{ source: string; name: string; length: number; followers: number }> }>;
    };
    expect(state.flows).toEqual([]);
    expect(state.resources['/profiles']!.find((p) => p.id === REFS.profiles.defaultProject.id)?.name).toBe(
      REFS.profiles.defaultProject.name,
    );
    expect(state.browsers.find((b) => b.id === REFS.browsers.main.id)?.logs).toContainEqual({
      source: 'path',
      name: REFS.browsers.main.path,
      length: 3,
      followers: 0,
    });
    // The completed LOGIN had stored credentials; the reset forgot them.
    expect((await login(sandbox, C.withoutCredentials)).body).toMatchObject({ flow_type: FLOW.login });
  });

  it('needs no token, and API tokens do not reach it', async () => {
    const r = await call(sandbox, 'GET', '/_sandbox/state', { token: 'anything' });
    expect(r.status).toBe(200);
  });
});

describe('fixtures', () => {
  it('serves a fixture given as a JSON file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-fixture-'));
    const fixture: SandboxFixture = {
      organizations: [
        {
          id: 'org_a',
          projectsEnabled: true,
          defaultProjectId: 'proj_a',
          plan: { name: 'p' },
        },
      ],
      projects: [{ id: 'proj_a', organizationId: 'org_a' }],
      tokens: [{ name: 'me', token: 'tok_me', organizationId: 'org_a', projectId: 'proj_a', role: 'member' }],
      authConnections: [{ id: 'ac_1', projectId: 'proj_a', hasStoredCredentials: true, recordSession: false }],
      proxies: [],
      profiles: [
        { id: 'prof_1', projectId: null, organizationId: 'org_a', name: 'one', createdAt: '2026-01-01T00:00:00Z' },
      ],
      browsers: [
        {
          id: 'br_1',
          projectId: 'proj_a',
          logs: [{ source: 'supervisor', supervisorProcess: 'agent', lines: ['hello'] }],
        },
      ],
    };
    const path = join(dir, 'fixture.json');
    await writeFile(path, JSON.stringify(fixture));
    const own = await start({ fixture: path });
    try {
      expect(own.fixture.tokens).toEqual({ me: 'tok_me' });
      expect(own.fixture.tokensByRole.member).toEqual(['me']);
      expect((await login(own, 'ac_1', {}, 'tok_me')).body).toMatchObject({ flow_type: FLOW.reauth });
      expect((await rename(own, 'one', { name: 'two' }, 'tok_me')).status).toBe(200);
      const reader = await StreamReader.open(own, 'br_1', 'source=supervisor&supervisor_process=agent', {
        token: 'tok_me',
      });
      await reader.finished();
      expect(reader.events.map((e) => JSON.parse(e.data).message)).toEqual(['hello']);
    } finally {
      await own.close();
      await rm(dir, { recursive: true });
    }
  });

  it('refuses an incoherent fixture, listing the problems', async () => {
    const bad = structuredClone(DEFAULT_FIXTURE);
    bad.profiles.push({
      id: REFS.profiles.unnamed.id,
      projectId: 'proj_missing',
      name: null,
      createdAt: '2026-01-01T00:00:00Z',
    });
    bad.authConnections[0]!.browserTelemetry = { enabled: false, browser: { console: { enabled: true } } };
    const error = await start({ fixture: bad }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixtureError);
    const problems = (error as FixtureError).problems.join('\n');
    expect(problems).toContain(`profile id "${REFS.profiles.unnamed.id}" appears twice`);
    expect(problems).toContain('unknown project "proj_missing"');
    expect(problems).toContain('browserTelemetry is not a valid BrowserTelemetryRequestConfig');
  });

  it('refuses a non-loopback host and a bad port', async () => {
    await expect(start({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
    await expect(start({ port: 70000 })).rejects.toThrow(/port/);
  });

  it('summarises the built-in fixture with the documented names', () => {
    expect(sandbox.fixture.tokens).toMatchObject(REFS.tokens);
    expect(sandbox.fixture.tokensByRole).toEqual({
      owner: ['owner', 'otherProject', 'projectsDisabled', 'freePlan'],
      member: [],
      readonly: ['readonly'],
    });
    expect(sandbox.fixture.browsers).toContain(REFS.browsers.main.id);
    expect(new URL(sandbox.url).hostname).toBe('127.0.0.1');
  });
});
