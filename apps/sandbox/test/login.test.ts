import { validateLoginResponse } from '@browser-cloud/api-types/validators';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { FLOW, REFS, declared, detailMessages, expectError, inspect, login, start } from './helpers.js';

let sandbox: RunningSandbox;
let clock = Date.parse('2026-11-22T20:00:00.000Z');
const FLOW_TTL = 60_000;

beforeAll(async () => {
  // A clock of the test's own: flows expire when the test says so, not when the machine is slow.
  sandbox = await start({ flowTtlMs: FLOW_TTL, now: () => clock });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await inspect(sandbox, '/reset', 'POST');
});

const C = REFS.authConnections;
const flow = async (connection: string) => (await inspect(sandbox, `/flows/${connection}`)).body as Record<string, any>;

describe('flow type', () => {
  it('starts a REAUTH with a handoff code when credentials are stored, answering what the document declares', async () => {
    const r = await login(sandbox, C.withCredentials);
    expect(r.status).toBe(200);
    expect(validateLoginResponse(r.body)).toBe(true);
    const body = r.body as Record<string, string>;
    expect(body).toMatchObject({ id: C.withCredentials, flow_type: FLOW.reauth });
    const started = await flow(C.withCredentials);
    expect(started['handoff_code']).toMatch(/^hc_/);
    expect(new URL(started['hosted_url']).origin).toBe(sandbox.url);
    expect(new URL(started['live_view_url']).origin).toBe(sandbox.url);
    // The flow's own fields that the document's LoginResponse declares, and nothing else.
    expect(body).toEqual(declared('LoginResponse', { ...started, id: C.withCredentials }));
    expect(Date.parse(body['flow_expires_at']!)).toBe(clock + FLOW_TTL);
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('starts a LOGIN without a handoff code when none are stored, with or without a body', async () => {
    const r = await login(sandbox, C.withoutCredentials);
    expect(r.status).toBe(200);
    expect(validateLoginResponse(r.body)).toBe(true);
    expect(r.body).toMatchObject({ id: C.withoutCredentials, flow_type: FLOW.login });
    expect(r.body).not.toHaveProperty('handoff_code');
    const withBody = await login(sandbox, C.telemetryOff, {});
    expect(withBody.status).toBe(200);
  });

  it('gives each flow its own urls', async () => {
    const a = (await login(sandbox, C.withCredentials)).body as Record<string, string>;
    const b = (await login(sandbox, C.withoutCredentials)).body as Record<string, string>;
    expect(a['hosted_url']).not.toBe(b['hosted_url']);
  });

  it('answers 404 for an unknown connection', async () => {
    expectError(await login(sandbox, 'ac_does_not_exist'), 404, 'not_found');
  });
});

describe('a flow in progress', () => {
  it('refuses a second login with 409 until the flow expires', async () => {
    expect((await login(sandbox, C.withoutCredentials)).status).toBe(200);
    const second = await login(sandbox, C.withoutCredentials);
    expectError(second, 409, 'conflict');
    // The official SDK retries a 409 unless told not to; a retry would meet the same flow.
    expect(second.headers.get('x-should-retry')).toBe('false');
    clock += FLOW_TTL - 1;
    expectError(await login(sandbox, C.withoutCredentials), 409, 'conflict');
    clock += 1;
    expect((await flow(C.withoutCredentials))['status']).toBe('expired');
    expect((await login(sandbox, C.withoutCredentials)).status).toBe(200);
  });

  it('allows a new login once the flow completed; a completed LOGIN leaves credentials stored', async () => {
    expect((await login(sandbox, C.withoutCredentials)).body).toMatchObject({ flow_type: FLOW.login });
    const done = await inspect(sandbox, `/flows/${C.withoutCredentials}/complete`, 'POST');
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed' });
    expect((await login(sandbox, C.withoutCredentials)).body).toMatchObject({ flow_type: FLOW.reauth });
  });

  it('does not hold a connection when the login failed validation', async () => {
    expectError(
      await login(sandbox, C.withoutCredentials, { proxy: { name: REFS.proxies.ambiguousName } }),
      400,
      'bad_request',
    );
    expect((await login(sandbox, C.withoutCredentials)).status).toBe(200);
  });

  it('lets exactly one of many concurrent logins through', async () => {
    const results = await Promise.all(Array.from({ length: 25 }, () => login(sandbox, C.withCredentials)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(24);
    for (const r of results) if (r.status === 409) expectError(r, 409, 'conflict');
    const winner = results.find((r) => r.status === 200)?.body as Record<string, string>;
    expect((await flow(C.withCredentials))['flow_id']).toBe(new URL(winner['hosted_url']!).pathname.split('/').pop());
  });

  it('keeps flows of different connections apart', async () => {
    const results = await Promise.all(
      [C.withCredentials, C.withoutCredentials, C.telemetryOff].map((c) => login(sandbox, c)),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});

describe('proxy references', () => {
  it('resolves a proxy by id and by a unique active name', async () => {
    expect((await login(sandbox, C.withCredentials, { proxy: { id: REFS.proxies.residentialA.id } })).status).toBe(200);
    expect((await flow(C.withCredentials))['proxy']).toEqual(REFS.proxies.residentialA);
    // An inactive proxy shares the name "datacenter-eu": it does not make the name ambiguous.
    expect((await login(sandbox, C.withoutCredentials, { proxy: { name: REFS.proxies.datacenter.name } })).status).toBe(
      200,
    );
    expect((await flow(C.withoutCredentials))['proxy']).toEqual(REFS.proxies.datacenter);
  });

  it('refuses an ambiguous name with 400 bad_request and an invalid_input detail', async () => {
    const body = expectError(
      await login(sandbox, C.withCredentials, { proxy: { name: REFS.proxies.ambiguousName } }),
      400,
      'bad_request',
    );
    expect(body.details).toEqual([{ code: 'invalid_input', message: 'proxy.name: ambiguous' }]);
    expect(body.message).toContain('by id');
  });

  it('refuses a proxy of another project, an inactive one and an unknown one with 400', async () => {
    for (const proxy of [
      { id: REFS.proxies.otherProject.id },
      { name: REFS.proxies.otherProject.name },
      { id: REFS.proxies.inactive.id },
      { id: 'prx_nope' },
    ]) {
      const body = expectError(await login(sandbox, C.withCredentials, { proxy }), 400, 'bad_request');
      expect(body.details?.[0]?.code).toBe('invalid_input');
      expect(detailMessages(body)[0]).toMatch(/^proxy\.(id|name): /);
    }
    expect(
      detailMessages(
        expectError(
          await login(sandbox, C.withCredentials, { proxy: { id: REFS.proxies.otherProject.id } }),
          400,
          'bad_request',
        ),
      ),
    ).toEqual(['proxy.id: not in the project of the auth connection']);
  });

  it('refuses a reference with both id and name, or neither, by the schema', async () => {
    for (const proxy of [{ id: REFS.proxies.datacenter.id, name: REFS.proxies.datacenter.name }, {}]) {
      const body = expectError(await login(sandbox, C.withCredentials, { proxy }), 400, 'bad_request');
      expect(detailMessages(body)).toEqual(['proxy: must provide exactly one of "id" or "name"']);
    }
  });
});

describe('record_session and browser_telemetry over the connection defaults', () => {
  it('applies the connection defaults when the request says nothing', async () => {
    await login(sandbox, C.withCredentials);
    const f = await flow(C.withCredentials);
    expect(f['record_session']).toBe(true);
    expect(f['browser_telemetry']).not.toHaveProperty('requested');
    expect(f['browser_telemetry']['applied']).toEqual({ enabled: true, browser: { console: { enabled: true } } });
    expect(f['browser_telemetry']['categories']).toEqual(['control', 'connection', 'system', 'captcha', 'console']);
  });

  it('treats null as "use the default"', async () => {
    await login(sandbox, C.withCredentials, { browser_telemetry: null, record_session: false });
    const f = await flow(C.withCredentials);
    expect(f['record_session']).toBe(false);
    expect(f['browser_telemetry']['requested']).toBeNull();
    expect(f['browser_telemetry']['categories']).toEqual(['control', 'connection', 'system', 'captcha', 'console']);
  });

  it('replaces the default with the request, layered onto the default set', async () => {
    await login(sandbox, C.withCredentials, {
      record_session: false,
      browser_telemetry: { enabled: true, browser: { network: { enabled: true }, captcha: { enabled: false } } },
    });
    const f = await flow(C.withCredentials);
    expect(f['record_session']).toBe(false);
    expect(f['browser_telemetry']['categories']).toEqual(['control', 'connection', 'system', 'network']);
  });

  it('captures nothing for enabled=false, or when every category is disabled', async () => {
    await login(sandbox, C.withCredentials, { browser_telemetry: { enabled: false } });
    expect((await flow(C.withCredentials))['browser_telemetry']['categories']).toEqual([]);
    const off = {
      control: { enabled: false },
      connection: { enabled: false },
      system: { enabled: false },
      captcha: { enabled: false },
    };
    await login(sandbox, C.withoutCredentials, { browser_telemetry: { browser: off } });
    expect((await flow(C.withoutCredentials))['browser_telemetry']['categories']).toEqual([]);
  });

  it('accepts a category without enabled, at its default: {"browser":{"console":{}}}', async () => {
    const response = await login(sandbox, C.withoutCredentials, {
      browser_telemetry: { browser: { console: {}, control: {}, network: { enabled: true } } },
    });
    expect(response.status).toBe(200);
    const f = await flow(C.withoutCredentials);
    expect(f['browser_telemetry']['requested']).toEqual({
      browser: { console: {}, control: {}, network: { enabled: true } },
    });
    expect(f['browser_telemetry']['categories']).toEqual(['control', 'connection', 'system', 'captcha', 'network']);
  });

  it('captures nothing when neither the request nor the connection configures telemetry', async () => {
    await login(sandbox, C.withoutCredentials, { record_session: true });
    const f = await flow(C.withoutCredentials);
    expect(f['record_session']).toBe(true);
    expect(f['browser_telemetry']['connection_default']).toBeNull();
    expect(f['browser_telemetry']['categories']).toEqual([]);
  });

  it('lets a request turn on telemetry that the connection has off', async () => {
    await login(sandbox, C.telemetryOff, { browser_telemetry: { enabled: true } });
    expect((await flow(C.telemetryOff))['browser_telemetry']['categories']).toEqual([
      'control',
      'connection',
      'system',
      'captcha',
    ]);
  });

  it('refuses enabled=false with categories (400, naming the rule)', async () => {
    const body = expectError(
      await login(sandbox, C.withCredentials, {
        browser_telemetry: { enabled: false, browser: { console: { enabled: true } } },
      }),
      400,
      'bad_request',
    );
    expect(detailMessages(body)).toEqual([
      'browser_telemetry: these properties are not allowed in this combination (enabled=false, browser)',
    ]);
  });

  it('refuses unknown categories and wrong types, naming the field', async () => {
    const unknown = expectError(
      await login(sandbox, C.withCredentials, { browser_telemetry: { browser: { gpu: { enabled: true } } } }),
      400,
      'bad_request',
    );
    expect(detailMessages(unknown)).toEqual(['browser_telemetry.browser.gpu: is not a known property']);
    const wrong = expectError(
      await login(sandbox, C.withCredentials, { record_session: 'yes', browser_telemetry: 5 }),
      400,
      'bad_request',
    );
    expect(detailMessages(wrong).sort()).toEqual([
      'browser_telemetry: must be object or null',
      'record_session: must be boolean',
    ]);
  });
});
