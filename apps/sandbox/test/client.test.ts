import { ConflictError, NotFoundError, PermissionDeniedError, createClient } from '@browser-cloud/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { REFS, TOKENS, appendLines, start } from './helpers.js';

/** The SDK against the sandbox: what an agent developer does offline. */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start({ keepAliveMs: 50, retryMs: 10 });
});
afterAll(() => sandbox.close());

const owner = () => createClient({ baseUrl: sandbox.url, token: TOKENS.owner, maxRetries: 0 });

describe('@browser-cloud/client against the sandbox', () => {
  it('logs in once, then meets ConflictError', async () => {
    const client = owner();
    const flow = await client.auth.connections.login(REFS.authConnections.withCredentials, {
      proxy: { id: REFS.proxies.datacenter.id },
    });
    expect(flow.flow_type).toBe('REAUTH');
    await expect(client.auth.connections.login(REFS.authConnections.withCredentials)).rejects.toBeInstanceOf(
      ConflictError,
    );
  });

  it('renames, and maps 403 and 404 to their errors', async () => {
    const profile = await owner().profiles.rename(REFS.profiles.unnamed.id, { name: 'from-the-client' });
    expect(profile.name).toBe('from-the-client');
    const readonly = createClient({ baseUrl: sandbox.url, token: TOKENS.readonly, maxRetries: 0 });
    await expect(readonly.profiles.rename(REFS.profiles.unnamed.id, { name: 'x' })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
    await expect(owner().profiles.rename('prof_nope', { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('follows a log stream and resumes from lastEventId', async () => {
    const { id, path } = REFS.browsers.quiet;
    const client = owner();
    const first = client.browsers.logs.stream(id, { source: 'path', path, follow: true });
    await appendLines(sandbox, id, { source: 'path', path }, ['one', 'two']);
    const got: string[] = [];
    for await (const event of first) {
      got.push(event.message);
      if (got.length === 2) break;
    }
    const lastEventId = first.lastEventId;
    expect(lastEventId).toBe('2');
    await appendLines(sandbox, id, { source: 'path', path }, ['three']);
    const second = client.browsers.logs.stream(id, { source: 'path', path, follow: true }, { lastEventId });
    for await (const event of second) {
      got.push(event.message);
      break;
    }
    expect(got).toEqual(['one', 'two', 'three']);
  });
});
