import { randomBytes } from 'node:crypto';
import type { LoginRequest, LoginResponse, ProxyRef } from '@browser-cloud/api-types';
import { badRequest, conflict, notFound } from '../http/api-error.js';
import type { SandboxSettings } from '../state/sandbox-state.js';
import { flowStatus, type Caller, type LoginFlow, type SandboxStore } from '../state/store.js';
import { loginTelemetryCategories } from './telemetry.js';

/**
 * Starts a login flow: a re-authentication (`REAUTH` in the document as released) when the
 * connection has stored credentials, a login (`LOGIN`) otherwise; the values come from the document.
 * Everything from the check for a flow in progress to storing the new flow runs without an
 * await, so that of concurrent logins exactly one starts a flow and the others meet 409.
 */
export function startLogin(
  store: SandboxStore,
  caller: Caller,
  connectionId: string,
  request: LoginRequest,
  settings: SandboxSettings,
): LoginResponse {
  const connection = store.get('connections', caller, connectionId);
  if (connection === undefined) throw notFound(`auth connection ${connectionId} not found`);

  const proxy = request.proxy === undefined ? null : resolveProxy(store, caller, request.proxy);
  const applied = request.browser_telemetry ?? connection.browserTelemetry;
  const categories = loginTelemetryCategories(applied);

  const now = settings.now();
  const current = store.flow(connectionId);
  if (current !== undefined && flowStatus(current, now) === 'in_progress') {
    throw conflict(`a login flow is already in progress for auth connection ${connectionId}`);
  }

  const flowId = `fl_${randomBytes(8).toString('hex')}`;
  const base = settings.publicUrl();
  const reauth = connection.hasStoredCredentials;
  const flowType = reauth ? settings.flowTypes.reauth : settings.flowTypes.login;
  const flow: LoginFlow = {
    flowId,
    connectionId,
    flowType,
    hostedUrl: `${base}/_sandbox/hosted/${flowId}`,
    liveViewUrl: `${base}/_sandbox/live/${flowId}`,
    ...(reauth ? { handoffCode: `hc_${randomBytes(6).toString('hex')}` } : {}),
    startedAt: now,
    expiresAt: now + settings.flowTtlMs,
    startedBy: caller.tokenName,
    recordSession: request.record_session ?? connection.recordSession,
    proxy,
    telemetry: {
      requested: request.browser_telemetry,
      connectionDefault: connection.browserTelemetry,
      applied,
      categories,
    },
  };
  store.setFlow(flow);

  return {
    id: connectionId,
    flow_type: flow.flowType,
    hosted_url: flow.hostedUrl,
    flow_expires_at: new Date(flow.expiresAt).toISOString(),
    ...(flow.handoffCode === undefined ? {} : { handoff_code: flow.handoffCode }),
    live_view_url: flow.liveViewUrl,
  };
}

/**
 * A ProxyRef's proxy: by id, or by a name that matches exactly one active proxy of the caller's
 * project. Every failure is bad input (400), since the reference is part of the request.
 */
export function resolveProxy(store: SandboxStore, caller: Caller, ref: ProxyRef): { id: string; name: string } {
  if ('id' in ref && typeof ref.id === 'string') {
    const proxy = store.byId('proxies', ref.id);
    if (proxy?.organizationId !== caller.organization.id)
      throw badRequest(`proxy ${ref.id} not found`, [['proxy.id', 'no such proxy']]);
    if (proxy.logicalProjectId !== caller.logicalProjectId) {
      throw badRequest(`proxy ${ref.id} belongs to another project`, [
        ['proxy.id', 'not in the project of the auth connection'],
      ]);
    }
    if (!proxy.active) throw badRequest(`proxy ${ref.id} is not active`, [['proxy.id', 'inactive']]);
    return { id: proxy.id, name: proxy.name };
  }
  const name = (ref as { name: string }).name;
  const matches = store.named('proxies', caller, name).filter((p) => p.active);
  if (matches.length === 0)
    throw badRequest(`no active proxy named "${name}" in this project`, [['proxy.name', 'no such proxy']]);
  const [only] = matches;
  if (matches.length > 1 || only === undefined) {
    throw badRequest(`proxy name "${name}" matches ${matches.length} active proxies; reference the proxy by id`, [
      ['proxy.name', 'ambiguous'],
    ]);
  }
  return { id: only.id, name: only.name };
}

/** Completes a flow, as the person at `hosted_url` (or the automatic re-authentication) would. */
export function completeFlow(flow: LoginFlow, store: SandboxStore, now: number): void {
  flow.completedAt = now;
  // A completed LOGIN stores the credentials it captured: the next login is a REAUTH.
  const connection = store.byId('connections', flow.connectionId);
  if (connection !== undefined) connection.hasStoredCredentials = true;
}
