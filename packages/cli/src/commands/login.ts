import type { BrowserTelemetryRequestConfig, LoginRequest, LoginResponse } from '@browser-cloud/client';
import { type CliIo, writeOut } from '../cli-io.js';
import { withClient } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import { forTerminal, jsonForTerminal } from '../terminal-text.js';

export interface LoginOptions {
  proxyId?: string;
  proxyName?: string;
  recordSession?: boolean;
  telemetry?: BrowserTelemetryRequestConfig;
  json?: boolean;
}

/** `browser-cloud login <connection-id>`: starts a login flow, never retried into a 409. */
export function login(io: CliIo, connectionId: string, options: LoginOptions): Promise<number> {
  const json = options.json === true;
  return withClient(io, { json }, async (client) => {
    const flow = await client.auth.connections.login(connectionId, loginBody(options), { signal: io.interrupt });
    await writeOut(io.stdout, json ? `${jsonForTerminal(flow)}\n` : forTerminal(describeFlow(flow), { lines: true }));
    return EXIT.ok;
  });
}

/**
 * The request body from the options; undefined when none was given (the connection's defaults
 * apply). Both proxy options make a `{id, name}` that the client refuses with its own message.
 */
export function loginBody(options: LoginOptions): LoginRequest | undefined {
  const proxy = {
    ...(options.proxyId === undefined ? {} : { id: options.proxyId }),
    ...(options.proxyName === undefined ? {} : { name: options.proxyName }),
  };
  const body = {
    ...(Object.keys(proxy).length > 0 ? { proxy } : {}),
    ...(options.recordSession === undefined ? {} : { record_session: options.recordSession }),
    ...(options.telemetry === undefined ? {} : { browser_telemetry: options.telemetry }),
  };
  return Object.keys(body).length > 0 ? (body as LoginRequest) : undefined;
}

function describeFlow(flow: LoginResponse): string {
  const lines = [
    flow.flow_type === 'LOGIN'
      ? `Login flow started: complete the login at ${flow.hosted_url}`
      : 'Re-authentication started with the stored credentials.',
    `  connection: ${flow.id}`,
    `  flow type:  ${flow.flow_type}`,
    `  hosted URL: ${flow.hosted_url}`,
    `  expires at: ${flow.flow_expires_at}`,
  ];
  if (flow.live_view_url) lines.push(`  live view:  ${flow.live_view_url}`);
  return `${lines.join('\n')}\n`;
}
