import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE, DEFAULT_FIXTURE_REFS as R } from '../fixture/default-fixture.js';
import type { SandboxSettings } from '../state/sandbox-state.js';
import { type Caller, SandboxStore } from '../state/store.js';
import { apiErrorThrown as thrown } from '../test-support/api-error-thrown.js';
import { completeFlow, resolveProxy, startLogin } from './login.js';
import { flowTypesOf } from '../openapi/flow-types.js';
import { loadSandboxDocument } from '../openapi/sandbox-document.js';

const FLOW = flowTypesOf(loadSandboxDocument());

const NOW = Date.parse('2026-11-24T12:00:00.000Z');

function setup(now = NOW) {
  const store = new SandboxStore(DEFAULT_FIXTURE, now);
  const caller = store.authenticate(R.tokens.owner) as Caller;
  const settings: SandboxSettings = {
    flowTtlMs: 600_000,
    keepAliveMs: 1000,
    retryMs: 1000,
    now: () => now,
    publicUrl: () => 'http://sandbox.test',
    flowTypes: FLOW,
  };
  return { store, caller, settings };
}

describe('startLogin', () => {
  it('starts a LOGIN for a connection without stored credentials, with the connection defaults', () => {
    const { store, caller, settings } = setup();
    const response = startLogin(store, caller, R.authConnections.withoutCredentials, {}, settings);
    const flow = store.flow(R.authConnections.withoutCredentials)!;
    expect(flow.flowId).toMatch(/^fl_[0-9a-f]{16}$/);
    expect(response).toStrictEqual({
      id: R.authConnections.withoutCredentials,
      flow_type: FLOW.login,
      hosted_url: `http://sandbox.test/_sandbox/hosted/${flow.flowId}`,
      flow_expires_at: '2026-11-24T12:10:00.000Z',
      live_view_url: `http://sandbox.test/_sandbox/live/${flow.flowId}`,
    });
    expect(flow).toMatchObject({
      connectionId: R.authConnections.withoutCredentials,
      flowType: FLOW.login,
      startedAt: NOW,
      expiresAt: NOW + 600_000,
      startedBy: 'owner',
      recordSession: false,
      proxy: null,
      telemetry: { requested: undefined, connectionDefault: null, applied: null },
    });
    expect(flow.handoffCode).toBeUndefined();
    expect('handoffCode' in flow).toBe(false);
  });

  it('starts a REAUTH with a handoff code for a connection with stored credentials', () => {
    const { store, caller, settings } = setup();
    const response = startLogin(store, caller, R.authConnections.withCredentials, {}, settings);
    const flow = store.flow(R.authConnections.withCredentials)!;
    expect(flow.handoffCode).toMatch(/^hc_[0-9a-f]{12}$/);
    expect(response.flow_type).toBe(FLOW.reauth);
    expect(response.handoff_code).toBe(flow.handoffCode);
    expect(flow.recordSession).toBe(true);
    expect(flow.telemetry.applied).toEqual({ enabled: true, browser: { console: { enabled: true } } });
    expect(flow.telemetry.categories.length).toBeGreaterThan(0);
  });

  it('lets the request override record_session, the telemetry and the proxy', () => {
    const { store, caller, settings } = setup();
    startLogin(
      store,
      caller,
      R.authConnections.withCredentials,
      { record_session: false, browser_telemetry: { enabled: false }, proxy: { name: R.proxies.datacenter.name } },
      settings,
    );
    const flow = store.flow(R.authConnections.withCredentials)!;
    expect(flow.recordSession).toBe(false);
    expect(flow.telemetry).toEqual({
      requested: { enabled: false },
      connectionDefault: { enabled: true, browser: { console: { enabled: true } } },
      applied: { enabled: false },
      categories: [],
    });
    expect(flow.proxy).toEqual({ id: R.proxies.datacenter.id, name: R.proxies.datacenter.name });
  });

  it('answers 404 for a connection the caller cannot see', () => {
    const { store, caller, settings } = setup();
    expect(thrown(() => startLogin(store, caller, R.authConnections.otherProject, {}, settings))).toEqual({
      status: 404,
      body: { code: 'not_found', message: `auth connection ${R.authConnections.otherProject} not found` },
      headers: {},
    });
  });

  it('answers 409 while a flow is in progress, and starts a new one once it expired or completed', () => {
    const { store, caller, settings } = setup();
    const id = R.authConnections.withoutCredentials;
    startLogin(store, caller, id, {}, settings);
    expect(thrown(() => startLogin(store, caller, id, {}, settings))).toEqual({
      status: 409,
      body: { code: 'conflict', message: `a login flow is already in progress for auth connection ${id}` },
      headers: { 'x-should-retry': 'false' },
    });
    // One millisecond before expiry it is still in progress; at expiry it is not.
    const first = store.flow(id)!;
    const almost = { ...settings, now: () => first.expiresAt - 1 };
    expect(thrown(() => startLogin(store, caller, id, {}, almost)).status).toBe(409);
    startLogin(store, caller, id, {}, { ...settings, now: () => first.expiresAt });
    const second = store.flow(id)!;
    expect(second.flowId).not.toBe(first.flowId);
    completeFlow(second, store, second.startedAt + 5);
    startLogin(store, caller, id, {}, { ...settings, now: () => second.startedAt + 6 });
    expect(store.flow(id)!.flowId).not.toBe(second.flowId);
  });
});

describe('completeFlow', () => {
  it('marks the flow completed and makes the next login a REAUTH', () => {
    const { store, caller, settings } = setup();
    const id = R.authConnections.withoutCredentials;
    startLogin(store, caller, id, {}, settings);
    const flow = store.flow(id)!;
    completeFlow(flow, store, NOW + 42);
    expect(flow.completedAt).toBe(NOW + 42);
    expect(startLogin(store, caller, id, {}, settings).flow_type).toBe(FLOW.reauth);
  });
});

describe('completeFlow of a connection that is gone', () => {
  it('still completes the flow', () => {
    const { store, caller, settings } = setup();
    startLogin(store, caller, R.authConnections.withoutCredentials, {}, settings);
    const flow = { ...store.flow(R.authConnections.withoutCredentials)!, connectionId: 'ac_gone' };
    completeFlow(flow, store, NOW + 1);
    expect(flow.completedAt).toBe(NOW + 1);
  });
});

describe('resolveProxy', () => {
  it('takes a reference whose id is not a string for a reference by name', () => {
    const { store, caller } = setup();
    const ref = { id: null, name: R.proxies.datacenter.name } as unknown as { name: string };
    expect(resolveProxy(store, caller, ref)).toStrictEqual({
      id: R.proxies.datacenter.id,
      name: R.proxies.datacenter.name,
    });
  });

  it('finds an active proxy of the project by id or by its unique name', () => {
    const { store, caller } = setup();
    const expected = { id: R.proxies.datacenter.id, name: R.proxies.datacenter.name };
    expect(resolveProxy(store, caller, { id: R.proxies.datacenter.id })).toStrictEqual(expected);
    expect(resolveProxy(store, caller, { name: R.proxies.datacenter.name })).toStrictEqual(expected);
  });

  it('refuses an unknown, foreign or inactive proxy id with 400 naming proxy.id', () => {
    const { store, caller } = setup();
    const detail = (message: string) => [{ code: 'invalid_input', message }];
    expect(thrown(() => resolveProxy(store, caller, { id: 'prx_nope' })).body).toStrictEqual({
      code: 'bad_request',
      message: 'proxy prx_nope not found',
      details: detail('proxy.id: no such proxy'),
    });
    expect(thrown(() => resolveProxy(store, caller, { id: R.proxies.otherProject.id })).body).toStrictEqual({
      code: 'bad_request',
      message: `proxy ${R.proxies.otherProject.id} belongs to another project`,
      details: detail('proxy.id: not in the project of the auth connection'),
    });
    expect(thrown(() => resolveProxy(store, caller, { id: R.proxies.inactive.id })).body).toStrictEqual({
      code: 'bad_request',
      message: `proxy ${R.proxies.inactive.id} is not active`,
      details: detail('proxy.id: inactive'),
    });
  });

  it('refuses an unknown or ambiguous name with 400 naming proxy.name', () => {
    const { store, caller } = setup();
    expect(thrown(() => resolveProxy(store, caller, { name: 'nope' })).body).toStrictEqual({
      code: 'bad_request',
      message: 'no active proxy named "nope" in this project',
      details: [{ code: 'invalid_input', message: 'proxy.name: no such proxy' }],
    });
    expect(thrown(() => resolveProxy(store, caller, { name: R.proxies.ambiguousName })).body).toStrictEqual({
      code: 'bad_request',
      message: `proxy name "${R.proxies.ambiguousName}" matches 2 active proxies; reference the proxy by id`,
      details: [{ code: 'invalid_input', message: 'proxy.name: ambiguous' }],
    });
  });
});
