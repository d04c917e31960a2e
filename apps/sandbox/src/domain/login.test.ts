import { type LoginRequest, resolveTelemetry } from '@browser-cloud/api-types';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE_REFS as R } from '../fixture/default-fixture.js';
import type { Caller } from '../state/store.js';
import { sandboxState } from '../test-support/sandbox-state.js';
import { completeFlow, resolveProxy, startLogin } from './login.js';
import { flowTypesOf, loadSandboxDocument } from '../openapi/sandbox-document.js';

const FLOW = flowTypesOf(loadSandboxDocument());

const NOW = Date.parse('2026-11-24T12:00:00.000Z');

function setup() {
  let now = NOW;
  const store = sandboxState(() => now);
  const caller = store.tokens.get(R.tokens.owner) as Caller;
  /** Starts a login on the connection with this id, as the route does once it found it. */
  const login = (id: string, request: LoginRequest = {}) =>
    startLogin(store, caller, store.byId(store.keyOf('connections'), id)!, request);
  const setNow = (at: number) => {
    now = at;
  };
  return { store, caller, login, setNow };
}

describe('startLogin', () => {
  it('starts a LOGIN for a connection without stored credentials, with the connection defaults', () => {
    const { store, login } = setup();
    const response = login(R.authConnections.withoutCredentials);
    const flow = store.flows.get(R.authConnections.withoutCredentials)!;
    expect(flow.flow_id).toMatch(/^fl_[0-9a-f]{16}$/);
    expect(response).toStrictEqual({
      id: R.authConnections.withoutCredentials,
      flow_type: FLOW.login,
      hosted_url: `http://sandbox.test/_sandbox/hosted/${flow.flow_id}`,
      flow_expires_at: '2026-11-24T12:10:00.000Z',
      live_view_url: `http://sandbox.test/_sandbox/live/${flow.flow_id}`,
    });
    expect(flow).toStrictEqual({
      connection_id: R.authConnections.withoutCredentials,
      flow_id: flow.flow_id,
      flow_type: FLOW.login,
      hosted_url: response.hosted_url,
      live_view_url: response.live_view_url,
      started_at: '2026-11-24T12:00:00.000Z',
      flow_expires_at: '2026-11-24T12:10:00.000Z',
      started_by: 'owner',
      record_session: false,
      proxy: null,
      browser_telemetry: { connection_default: null, applied: null, categories: [] },
    });
  });

  it('starts a REAUTH with a handoff code for a connection with stored credentials', () => {
    const { store, login } = setup();
    const response = login(R.authConnections.withCredentials);
    const flow = store.flows.get(R.authConnections.withCredentials)!;
    expect(flow.handoff_code).toMatch(/^hc_[0-9a-f]{12}$/);
    expect(response.flow_type).toBe(FLOW.reauth);
    expect(response.handoff_code).toBe(flow.handoff_code);
    expect(flow.record_session).toBe(true);
    expect(flow.browser_telemetry.applied).toEqual({ enabled: true, browser: { console: { enabled: true } } });
    // Resolved as on create, by the SDK's own code.
    expect(flow.browser_telemetry.categories).toEqual(
      resolveTelemetry(flow.browser_telemetry.applied, { mode: 'create' }),
    );
    expect(flow.browser_telemetry.categories).toContain('console');
  });

  it('lets the request override record_session, the telemetry and the proxy', () => {
    const { store, login } = setup();
    login(R.authConnections.withCredentials, {
      record_session: false,
      browser_telemetry: { enabled: false },
      proxy: { name: R.proxies.datacenter.name },
    });
    const flow = store.flows.get(R.authConnections.withCredentials)!;
    expect(flow.record_session).toBe(false);
    expect(flow.browser_telemetry).toEqual({
      requested: { enabled: false },
      connection_default: { enabled: true, browser: { console: { enabled: true } } },
      applied: { enabled: false },
      categories: [],
    });
    expect(flow.proxy).toEqual({ id: R.proxies.datacenter.id, name: R.proxies.datacenter.name });
  });

  it('keeps a null telemetry request apart from an omitted one, and applies the default for both', () => {
    const { store, login } = setup();
    login(R.authConnections.telemetryOff, { browser_telemetry: null });
    expect(store.flows.get(R.authConnections.telemetryOff)!.browser_telemetry).toEqual({
      requested: null,
      connection_default: { enabled: false },
      applied: { enabled: false },
      categories: [],
    });
  });

  it('answers 409 while a flow is in progress, and starts a new one once it expired or completed', () => {
    const { store, login, setNow } = setup();
    const id = R.authConnections.withoutCredentials;
    login(id);
    expect(() => login(id)).toThrow(
      expect.objectContaining({
        status: 409,
        body: { code: 'conflict', message: `a login flow is already in progress for auth connection ${id}` },
        headers: { 'x-should-retry': 'false' },
      }),
    );
    // One millisecond before expiry it is still in progress; at expiry it is not.
    const first = store.flows.get(id)!;
    setNow(Date.parse(first.flow_expires_at) - 1);
    expect(() => login(id)).toThrow(expect.objectContaining({ status: 409 }));
    setNow(Date.parse(first.flow_expires_at));
    login(id);
    const second = store.flows.get(id)!;
    expect(second.flow_id).not.toBe(first.flow_id);
    completeFlow(store, second);
    login(id);
    expect(store.flows.get(id)!.flow_id).not.toBe(second.flow_id);
  });
});

describe('completeFlow', () => {
  it('marks the flow completed and makes the next login a REAUTH', () => {
    const { store, login, setNow } = setup();
    const id = R.authConnections.withoutCredentials;
    login(id);
    const flow = store.flows.get(id)!;
    setNow(NOW + 42);
    completeFlow(store, flow);
    expect(flow.completed_at).toBe(new Date(NOW + 42).toISOString());
    expect(login(id).flow_type).toBe(FLOW.reauth);
  });

  it('still completes the flow of a connection that is gone', () => {
    const { store, login } = setup();
    login(R.authConnections.withoutCredentials);
    const flow = { ...store.flows.get(R.authConnections.withoutCredentials)!, connection_id: 'ac_gone' };
    completeFlow(store, flow);
    expect(flow.completed_at).toBe(new Date(NOW).toISOString());
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
    expect(() => resolveProxy(store, caller, { id: 'prx_nope' })).toThrow(
      expect.objectContaining({
        body: {
          code: 'bad_request',
          message: 'proxy prx_nope not found',
          details: detail('proxy.id: no such proxy'),
        },
      }),
    );
    expect(() => resolveProxy(store, caller, { id: R.proxies.otherProject.id })).toThrow(
      expect.objectContaining({
        body: {
          code: 'bad_request',
          message: `proxy ${R.proxies.otherProject.id} belongs to another project`,
          details: detail('proxy.id: not in the project of the auth connection'),
        },
      }),
    );
    expect(() => resolveProxy(store, caller, { id: R.proxies.inactive.id })).toThrow(
      expect.objectContaining({
        body: {
          code: 'bad_request',
          message: `proxy ${R.proxies.inactive.id} is not active`,
          details: detail('proxy.id: inactive'),
        },
      }),
    );
  });

  it('refuses an unknown or ambiguous name with 400 naming proxy.name', () => {
    const { store, caller } = setup();
    expect(() => resolveProxy(store, caller, { name: 'nope' })).toThrow(
      expect.objectContaining({
        body: {
          code: 'bad_request',
          message: 'no active proxy named "nope" in this project',
          details: [{ code: 'invalid_input', message: 'proxy.name: no such proxy' }],
        },
      }),
    );
    expect(() => resolveProxy(store, caller, { name: R.proxies.ambiguousName })).toThrow(
      expect.objectContaining({
        body: {
          code: 'bad_request',
          message: `proxy name "${R.proxies.ambiguousName}" matches 2 active proxies; reference the proxy by id`,
          details: [{ code: 'invalid_input', message: 'proxy.name: ambiguous' }],
        },
      }),
    );
  });
});
