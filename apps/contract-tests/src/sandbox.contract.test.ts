/**
 * The service's business rules that Prism cannot serve from examples, against the stateful
 * sandbox (apps/sandbox). Requests go through Prism's validating proxy like every other case,
 * except the follow/reconnect streams, which need the sandbox directly (the proxy buffers).
 */
import {
  type APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createClient,
  NotFoundError,
  PermissionDeniedError,
  resolveTelemetry,
} from '@browser-cloud/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, clientWithToken } from './harness/clients.js';
import { cuttingFetch } from './harness/cut-connections.js';
import { flowTypesOf } from '@browser-cloud/sandbox';
import { document, documentValidator } from './harness/target.js';
import { target } from './harness/target.js';

const onSandbox = target.mode === 'sandbox';
const FLOW = flowTypesOf(document);

/** Settles `work` and returns what it threw. */
const failure = (work: Promise<unknown>): Promise<APIError> =>
  work.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as APIError,
  );
const sandbox = target.sandbox!;
const R = sandbox?.refs;

async function inspect(path: string, method = 'GET') {
  const response = await fetch(`${sandbox.directUrl}/_sandbox${path}`, { method });
  expect(response.ok, `${method} /_sandbox${path}`).toBe(true);
  return response.json();
}

// The other files ran against the same sandbox; these cases start from the fixture, and leave it
// as they found it for the files after them (they rename the profile another file calls taken).
beforeAll(async () => {
  if (onSandbox) await inspect('/reset', 'POST');
});
afterAll(async () => {
  if (onSandbox) await inspect('/reset', 'POST');
});

describe.skipIf(!onSandbox)('loginAuthConnection', () => {
  it('starts REAUTH with stored credentials, refuses a second login with 409 while it runs, allows one after it completes', async () => {
    const flow = await client.auth.connections.login(R.authConnections.withCredentials);
    expect(flow.flow_type).toBe(FLOW.reauth);
    expect(documentValidator.validateAt('#/components/schemas/LoginResponse', flow)).toEqual([]);

    const conflict = await failure(client.auth.connections.login(R.authConnections.withCredentials));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict.status).toBe(409);

    await inspect(`/flows/${R.authConnections.withCredentials}/complete`, 'POST');
    const again = await client.auth.connections.login(R.authConnections.withCredentials);
    expect(again.flow_type).toBe(FLOW.reauth);
  });

  it('starts LOGIN without stored credentials', async () => {
    const flow = await client.auth.connections.login(R.authConnections.telemetryOff, { record_session: true });
    expect(flow.flow_type).toBe(FLOW.login);
    const state = await inspect(`/flows/${R.authConnections.telemetryOff}`);
    expect(state.record_session).toBe(true);
    expect(state.browser_telemetry.categories).toEqual([]);
  });

  it('refuses an ambiguous proxy name with 400 bad_request and an invalid_input detail', async () => {
    const error = await failure(
      client.auth.connections.login(R.authConnections.withoutCredentials, { proxy: { name: R.proxies.ambiguousName } }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.code).toBe('bad_request');
    expect(error.details?.map((d) => d.code)).toContain('invalid_input');
  });

  it('refuses a proxy of another project with 400', async () => {
    const error = await failure(
      client.auth.connections.login(R.authConnections.withoutCredentials, { proxy: { id: R.proxies.otherProject.id } }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
  });

  it('applies record_session and the telemetry override over the connection defaults, as resolveTelemetry says', async () => {
    const browser_telemetry = { browser: { network: { enabled: true }, captcha: { enabled: false } } };
    await client.auth.connections.login(R.authConnections.withoutCredentials, {
      proxy: { name: R.proxies.datacenter.name },
      browser_telemetry,
    });
    const state = await inspect(`/flows/${R.authConnections.withoutCredentials}`);
    expect(state.proxy).toMatchObject({ id: R.proxies.datacenter.id });
    expect(state.browser_telemetry.categories).toEqual(resolveTelemetry(browser_telemetry, { mode: 'create' }));
    expect(state.browser_telemetry.categories).toEqual(['control', 'connection', 'system', 'network']);
  });

  it('answers 401, 403 and 404 (projects_disabled, other project) for the tokens that call for them', async () => {
    expect(
      await failure(clientWithToken('sk_unknown').auth.connections.login(R.authConnections.withCredentials)),
    ).toBeInstanceOf(AuthenticationError);
    expect(
      await failure(clientWithToken(R.tokens.readonly).auth.connections.login(R.authConnections.withCredentials)),
    ).toBeInstanceOf(PermissionDeniedError);
    const disabled = await failure(
      clientWithToken(R.tokens.projectsDisabled).auth.connections.login(R.authConnections.withCredentials),
    );
    expect(disabled).toBeInstanceOf(NotFoundError);
    expect(disabled.code).toBe('projects_disabled');
    const invisible = await failure(
      clientWithToken(R.tokens.otherProject).auth.connections.login(R.authConnections.withCredentials),
    );
    expect(invisible).toBeInstanceOf(NotFoundError);
    expect(invisible.code).not.toBe('projects_disabled');
  });
});

describe.skipIf(!onSandbox)('renameProfile', () => {
  it('keeps names unique in the logical project: unscoped and default-project profiles count as one', async () => {
    const taken = await failure(client.profiles.rename(R.profiles.unnamed.id, { name: R.profiles.unscoped.name }));
    expect(taken).toBeInstanceOf(ConflictError);
    const takenFromUnscoped = await failure(
      client.profiles.rename(R.profiles.unscoped.id, { name: R.profiles.defaultProject.name }),
    );
    expect(takenFromUnscoped).toBeInstanceOf(ConflictError);
  });

  it('allows a name that only another project uses, and renames by name', async () => {
    const renamed = await clientWithToken(R.tokens.otherProject).profiles.rename(R.profiles.otherProject.id, {
      name: R.profiles.unscoped.name,
    });
    expect(renamed.name).toBe(R.profiles.unscoped.name);
    const byName = await client.profiles.rename(R.profiles.unscoped.name, { name: 'research-agent-2' });
    expect(byName.id).toBe(R.profiles.unscoped.id);
    expect(byName.name).toBe('research-agent-2');
  });

  it('answers 401 to an unknown token and 403 to a read-only one', async () => {
    const rename = (token: string) =>
      clientWithToken(token).profiles.rename(R.profiles.unnamed.id, { name: 'not-applied' });
    expect(await failure(rename('sk_unknown'))).toBeInstanceOf(AuthenticationError);
    expect(await failure(rename(R.tokens.readonly))).toBeInstanceOf(PermissionDeniedError);
  });

  it('answers 404 for an unknown profile', async () => {
    expect(await failure(client.profiles.rename('prof_does_not_exist', { name: 'x' }))).toBeInstanceOf(NotFoundError);
  });
});

describe.skipIf(!onSandbox)('streamBrowserLogs', () => {
  it('resumes from a stored lastEventId without repeating what came before', async () => {
    const query = { source: 'path', path: R.browsers.main.path } as const;
    const all = [];
    const ids: string[] = [];
    const first = client.browsers.logs.stream(R.browsers.main.id, query);
    for await (const event of first) {
      all.push(event);
      ids.push(first.lastEventId);
    }
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(ids[0]).not.toBe('');

    const resumedFrom = client.browsers.logs.stream(R.browsers.main.id, query, { lastEventId: ids[0] });
    const rest = [];
    for await (const event of resumedFrom) rest.push(event);
    expect(rest).toEqual(all.slice(1));
  });

  it('follows new lines, reconnects after a dropped connection with Last-Event-ID, and loses or repeats nothing', async () => {
    const { id, path } = R.browsers.quiet;
    const append = (lines: string[]) =>
      fetch(`${sandbox.directUrl}/_sandbox/browsers/${id}/logs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ source: 'path', path, lines }),
      });
    await append(['one', 'two', 'three', 'four']);

    // A network that drops the first connection in the middle of the third event.
    const { fetch: flakyFetch, lastEventIds } = cuttingFetch({ events: 2, connections: 1 });

    const direct = createClient({ baseUrl: sandbox.directUrl, token: target.token, fetch: flakyFetch, maxRetries: 3 });
    const controller = new AbortController();
    const stream = direct.browsers.logs.stream(
      id,
      { source: 'path', path, follow: true },
      { signal: controller.signal },
    );
    const messages: string[] = [];
    for await (const event of stream) {
      messages.push(event.message);
      if (messages.length === 4) await append(['five', 'six']);
      if (messages.length === 6) break;
    }
    controller.abort();
    expect(messages).toEqual(['one', 'two', 'three', 'four', 'five', 'six']);
    expect(lastEventIds.length, JSON.stringify(lastEventIds)).toBeGreaterThanOrEqual(2);
    expect(lastEventIds[0]).toBeNull();
    // The sandbox's ids: the log's epoch and the line's position.
    expect(lastEventIds[1], JSON.stringify(lastEventIds)).toEqual(expect.stringMatching(/^[0-9a-z]+-\d+$/));
  });

  it('streams a supervisor source and answers 404 for an unknown browser', async () => {
    const events = [];
    for await (const event of client.browsers.logs.stream(R.browsers.main.id, {
      source: 'supervisor',
      supervisor_process: R.browsers.main.supervisorProcess,
    })) {
      events.push(event);
    }
    expect(events.length).toBeGreaterThan(0);
    const unauthorized = await (async () => {
      for await (const _ of clientWithToken('sk_unknown').browsers.logs.stream(R.browsers.main.id, {
        source: 'path',
        path: R.browsers.main.path,
      }))
        void _;
    })().catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(AuthenticationError);
    const missing = await (async () => {
      for await (const _ of client.browsers.logs.stream('br_nope', { source: 'path', path: '/x' })) void _;
    })().catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
  });
});

if (!onSandbox)
  console.info(`[contract] sandbox-only cases skipped: they need the stateful sandbox (target: ${target.mode})`);
