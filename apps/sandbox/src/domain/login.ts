import { randomBytes } from 'node:crypto';
import { type LoginRequest, type LoginResponse, type ProxyRef, resolveTelemetry } from '@browser-cloud/api-types';
import { badRequest, conflict } from '@browser-cloud/request-checker';
import { type Caller, flowStatus, type Item, type LoginFlow, type SandboxState } from '../state/store.js';

/** What a login answers, all of it: the answer's schema leaves out what the document does not declare. */
export type LoginAnswer = Omit<LoginResponse, 'handoff_code' | 'live_view_url'> & {
  handoff_code?: string;
  live_view_url: string;
};

/** The login defaults of a connection the fixture does not describe (one created through the API). */
const NO_DEFAULTS = { hasStoredCredentials: false, recordSession: false, browserTelemetry: null };

/**
 * Starts a login flow: a re-authentication when the connection has stored credentials, a login
 * otherwise. No await between the check for a flow in progress and storing the new flow: of
 * concurrent logins exactly one starts a flow, the others meet 409.
 */
export function startLogin(state: SandboxState, caller: Caller, item: Item, request: LoginRequest): LoginAnswer {
  const { id } = item;
  const connection = item.seed.connection ?? NO_DEFAULTS;
  const proxy = request.proxy === undefined ? null : resolveProxy(state, caller, request.proxy);
  const applied = request.browser_telemetry ?? connection.browserTelemetry;
  // A login starts a new session: the configuration resolves as on create, by the code the SDK runs.
  const categories = resolveTelemetry(applied, { mode: 'create' });

  const { settings } = state;
  const now = settings.now();
  const current = state.flows.get(id);
  if (current && flowStatus(current, now) === 'in_progress') {
    throw conflict(`a login flow is already in progress for auth connection ${id}`);
  }

  const flowId = `fl_${randomBytes(8).toString('hex')}`;
  const base = settings.publicUrl();
  const reauth = connection.hasStoredCredentials;
  const answer = {
    flow_type: reauth ? settings.flowTypes.reauth : settings.flowTypes.login,
    hosted_url: `${base}/_sandbox/hosted/${flowId}`,
    flow_expires_at: new Date(now + settings.flowTtlMs).toISOString(),
    ...(reauth ? { handoff_code: `hc_${randomBytes(6).toString('hex')}` } : {}),
    live_view_url: `${base}/_sandbox/live/${flowId}`,
  };
  state.flows.set(id, {
    connection_id: id,
    flow_id: flowId,
    ...answer,
    started_at: new Date(now).toISOString(),
    started_by: caller.tokenName,
    record_session: request.record_session ?? connection.recordSession,
    proxy,
    browser_telemetry: {
      ...(request.browser_telemetry === undefined ? {} : { requested: request.browser_telemetry }),
      connection_default: connection.browserTelemetry,
      applied,
      categories,
    },
  });
  return { id, ...answer };
}

/**
 * A ProxyRef's proxy: by id, or by a name that matches exactly one active proxy of the caller's
 * project. Every failure is bad input (400), since the reference is part of the request.
 */
export function resolveProxy(state: SandboxState, caller: Caller, ref: ProxyRef): { id: string; name: string } {
  if ('id' in ref && typeof ref.id === 'string') {
    const found = state.byId(state.keyOf('proxies'), ref.id);
    const proxy = found && { ...found, name: String(found.value['name']), active: found.seed.active ?? true };
    if (proxy?.organization !== caller.organization) {
      throw badRequest(`proxy ${ref.id} not found`, [['proxy.id', 'no such proxy']]);
    }
    if (proxy.logicalProjectId !== caller.logicalProjectId) {
      throw badRequest(`proxy ${ref.id} belongs to another project`, [
        ['proxy.id', 'not in the project of the auth connection'],
      ]);
    }
    if (!proxy.active) throw badRequest(`proxy ${ref.id} is not active`, [['proxy.id', 'inactive']]);
    return { id: proxy.id, name: proxy.name };
  }
  const name = (ref as { name: string }).name;
  const matches = state
    .named(state.keyOf('proxies'), caller, name)
    .filter((p) => p.seed.active ?? true)
    .map((p) => ({ id: p.id, name }));
  const [only] = matches;
  if (only === undefined) {
    throw badRequest(`no active proxy named "${name}" in this project`, [['proxy.name', 'no such proxy']]);
  }
  if (matches.length > 1) {
    throw badRequest(`proxy name "${name}" matches ${matches.length} active proxies; reference the proxy by id`, [
      ['proxy.name', 'ambiguous'],
    ]);
  }
  return { id: only.id, name: only.name };
}

/** Completes a flow, as the person at `hosted_url` would; the connection now has stored credentials. */
export function completeFlow(state: SandboxState, flow: LoginFlow): void {
  flow.completed_at = new Date(state.settings.now()).toISOString();
  const connection = state.byId(state.keyOf('connections'), flow.connection_id);
  if (connection !== undefined)
    connection.seed.connection = { ...(connection.seed.connection ?? NO_DEFAULTS), hasStoredCredentials: true };
}
