import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createClient, createConnection } from './connection.js';
import { BrowserCloudError, ConflictError, ValidationError } from './errors.js';
import { createRawClient } from './raw.js';
import { loginAuthConnection, renameProfile, streamBrowserLogs } from './generated/client.js';
import { findSecret } from './test-support/find-secret.js';
import { json, LOGIN_RESPONSE, PROFILE, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

const BASE = 'http://127.0.0.1:4010/v0/';

function eventStream(...lines: string[]): () => Response {
  return () => new Response(lines.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('createConnection and the standalone operation functions', () => {
  it('send what the client sends: URL, method, token, client headers, body', async () => {
    const fetch = scriptedFetch(json(200, LOGIN_RESPONSE), json(200, PROFILE));
    const connection = createConnection({ baseUrl: BASE, token: TOKEN, fetch, headers: { 'x-app': 'a' } });
    expect(await loginAuthConnection(connection, 'ac_1', { proxy: { id: 'prx_1' } })).toEqual(LOGIN_RESPONSE);
    expect(await renameProfile(connection, 'prof_1', { name: 'n' })).toEqual(PROFILE);
    const [login, rename] = fetch.requests;
    expect([login?.method, login?.url]).toEqual(['POST', 'http://127.0.0.1:4010/v0/auth/connections/ac_1/login']);
    expect([rename?.method, rename?.url]).toEqual(['PATCH', 'http://127.0.0.1:4010/v0/profiles/prof_1']);
    for (const request of [login, rename]) {
      expect(request?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
      expect(request?.headers.get('x-app')).toBe('a');
    }
    expect(await rename?.json()).toEqual({ name: 'n' });
  });

  it('streams logs and keeps the typed errors and the checks before the network', async () => {
    const fetch = scriptedFetch(
      eventStream('id: 1\ndata: {"event":"log","timestamp":"2026-10-02T09:12:44Z","message":"one"}\n\n'),
      json(409, { code: 'conflict', message: 'name taken' }),
    );
    const connection = createConnection({ baseUrl: BASE, token: TOKEN, fetch, maxRetries: 0 });
    const stream = streamBrowserLogs(connection, 'br_1', { source: 'path', path: '/x' });
    const messages: string[] = [];
    for await (const event of stream) messages.push(event.message);
    expect(messages).toEqual(['one']);
    expect(stream.lastEventId).toBe('1');
    await expect(renameProfile(connection, 'prof_1', { name: 'n' })).rejects.toBeInstanceOf(ConflictError);
    const sent = fetch.requests.length;
    await expect(renameProfile(connection, 'prof_1', { name: '' })).rejects.toBeInstanceOf(ValidationError);
    expect(() => streamBrowserLogs(connection, 'br_1', { source: 'path' } as never)).toThrow(ValidationError);
    expect(fetch.requests.length).toBe(sent);
  });

  it('accept a client made by createClient, which is a connection too', async () => {
    const fetch = scriptedFetch(json(200, PROFILE));
    const client = createClient({ baseUrl: BASE, token: TOKEN, fetch });
    expect(await renameProfile(client, 'prof_1', { name: 'n' })).toEqual(PROFILE);
  });

  it('refuse anything else, naming the function', () => {
    const copy = { ...createConnection({ baseUrl: BASE, token: TOKEN }) };
    expect(() => renameProfile(copy, 'prof_1', { name: 'n' })).toThrow(BrowserCloudError);
    expect(() => renameProfile(copy, 'prof_1', { name: 'n' })).toThrow(/renameProfile\(\).*createConnection\(\)/);
    expect(() => loginAuthConnection(copy, 'ac_1')).toThrow(/loginAuthConnection\(\)/);
    expect(() => streamBrowserLogs(copy, 'br_1', { source: 'path', path: '/x' })).toThrow(/streamBrowserLogs\(\)/);
  });

  it('a connection checks its options as createClient does and works with createRawClient', async () => {
    expect(() => createConnection({ baseUrl: 'ftp://x', token: TOKEN })).toThrow(/http\(s\) URL/);
    expect(() => createConnection({ baseUrl: BASE, token: TOKEN, maxRetries: -1 })).toThrow(/maxRetries/);
    const fetch = scriptedFetch(json(200, PROFILE));
    const connection = createConnection({ baseUrl: BASE, token: TOKEN, fetch });
    const raw = await createRawClient(connection).PATCH('/profiles/{id_or_name}', {
      params: { path: { id_or_name: 'prof_1' } },
      body: { name: 'n' },
    });
    expect(raw.data).toEqual(PROFILE);
    expect(fetch.requests[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('never shows its token', () => {
    const connection = createConnection({ baseUrl: BASE, token: TOKEN });
    expect(JSON.stringify(connection)).toBe('{"baseUrl":"http://127.0.0.1:4010/v0","timeoutMs":60000,"maxRetries":2}');
    expect(inspect(connection, { showHidden: true, depth: 10 })).not.toContain(TOKEN);
    expect(findSecret(connection, TOKEN)).toEqual([]);
  });
});
