import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_METHODS, operations } from '@browser-cloud/openapi-document';
import { loadSandboxDocument, type RunningSandbox } from '../src/index.js';
import {
  REFS,
  RawConnection,
  TOKENS,
  call,
  detailMessages,
  expectError,
  login,
  rawRequest,
  rename,
  start,
} from './helpers.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start({ bodyLimit: 4096 });
});
afterAll(() => sandbox.close());

const profilePath = `/profiles/${REFS.profiles.defaultProject.id}`;
const json = { 'content-type': 'application/json' };

/** A request written by hand, for what fetch refuses to send. */
/** A PATCH of the profile written on a socket, with these extra header lines and this body. */
const patch = (headers: string, body: string) =>
  `PATCH ${profilePath} HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${TOKENS.owner}\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;

describe('bodies', () => {
  it('answers malformed JSON with 400 bad_request', async () => {
    for (const raw of ['{', '{"name":', 'nul', '{"name":"a"}}', '\u0000']) {
      const body = expectError(await call(sandbox, 'PATCH', profilePath, { raw, headers: json }), 400, 'bad_request');
      expect(body.message).toBe('the request body is invalid');
      expect(detailMessages(body)).toEqual([expect.stringMatching(/^body: is not valid JSON \(.+\)$/)]);
    }
  });

  it('answers a content type other than JSON with 400 bad_request (the document lists no 415)', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'multipart/form-data; boundary=x',
    ]) {
      const body = expectError(
        await call(sandbox, 'PATCH', profilePath, { raw: 'name=x', headers: { 'content-type': type } }),
        400,
        'bad_request',
      );
      expect(body.message).toBe('the request headers are invalid');
      expect(detailMessages(body)).toEqual([`content-type: must be application/json (got ${JSON.stringify(type)})`]);
    }
    expectError(
      await call(sandbox, 'POST', `/auth/connections/${REFS.authConnections.withoutCredentials}/login`, {
        raw: '{}',
        headers: { 'content-type': 'text/plain' },
      }),
      400,
      'bad_request',
    );
  });

  it('accepts application/json with a charset', async () => {
    const r = await call(sandbox, 'PATCH', profilePath, {
      raw: '{"name":"charset-ok"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(r.status).toBe(200);
  });

  it('answers a body over the limit with 413, without reading it all', async () => {
    const body = expectError(
      await rename(sandbox, REFS.profiles.defaultProject.id, { name: 'x'.repeat(10_000) }),
      413,
      'payload_too_large',
    );
    expect(body.message).toBe('the request body is larger than 4096 bytes');
    // A Content-Length over the limit is refused before the body arrives.
    const lied = await rawRequest(sandbox.url, patch('Content-Length: 999999\r\n', '{"name":"a"}'));
    expectError(lied, 413, 'payload_too_large');
  });

  it('refuses JSON nested deeper than 32 levels, on the API and on the control endpoints', async () => {
    const nested = (depth: number) => `{"browser_telemetry":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const api = expectError(
      await call(sandbox, 'POST', `/auth/connections/${REFS.authConnections.withoutCredentials}/login`, {
        raw: nested(40),
        headers: json,
      }),
      400,
      'bad_request',
    );
    expect(api.message).toBe('the request body is invalid');
    expect(detailMessages(api)).toEqual(['body: nests objects and arrays deeper than 32 levels (at character 52)']);

    // 16 MB nested 8 million levels deep, within the control endpoint's 16 MiB limit: refused
    // at its 33rd bracket, before any parse.
    const deep = `${'['.repeat(8_000_000)}${']'.repeat(8_000_000)}`;
    const control = expectError(
      await call(sandbox, 'POST', `/_sandbox/browsers/${REFS.browsers.main.id}/logs`, {
        token: null,
        raw: deep,
        headers: json,
      }),
      400,
      'bad_request',
    );
    expect(detailMessages(control)).toEqual(['body: nests objects and arrays deeper than 32 levels (at character 32)']);
  });

  it('refuses a prototype-polluting body and leaves objects clean', async () => {
    const body = expectError(
      await call(sandbox, 'PATCH', profilePath, { raw: '{"name":"p","__proto__":{"polluted":true}}', headers: json }),
      400,
      'bad_request',
    );
    expect(detailMessages(body)).toEqual(['__proto__: is not a known property']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('lone surrogates', () => {
  it('refuses a new name holding one: it could never be addressed by name again', async () => {
    const body = expectError(
      await call(sandbox, 'PATCH', profilePath, { raw: '{"name":"a\\ud800b"}', headers: json }),
      400,
      'bad_request',
    );
    expect(detailMessages(body)).toEqual(['name: must be well-formed Unicode (it holds a lone surrogate)']);
    const state = (await call(sandbox, 'GET', '/_sandbox/state', { token: null })).body as {
      resources: Record<string, Array<{ id: string; name: string }>>;
    };
    expect(state.resources['/profiles']!.find((p) => p.id === REFS.profiles.defaultProject.id)?.name).not.toContain(
      '\ud800',
    );
  });

  it('refuses a path whose percent-encoded bytes are a surrogate (not UTF-8)', async () => {
    const body = expectError(
      await call(sandbox, 'PATCH', '/profiles/%ED%A0%80', { body: { name: 'x' } }),
      400,
      'bad_request',
    );
    expect(detailMessages(body).join()).toMatch(/percent-encoding|well-formed/);
  });
});

describe('paths', () => {
  it('answers a malformed percent-encoding with 400', async () => {
    const body = expectError(
      await call(sandbox, 'PATCH', '/profiles/%E0%A4%A', { body: { name: 'x' } }),
      400,
      'bad_request',
    );
    expect(detailMessages(body)[0]).toMatch(/^path: /);
    expectError(await call(sandbox, 'GET', '/browsers/%ZZ/logs/stream?source=path&path=/x'), 400, 'bad_request');
  });

  it('answers an empty id with 400 and an unknown or very long id with 404', async () => {
    expectError(await call(sandbox, 'POST', '/auth/connections//login', { body: {} }), 400, 'bad_request');
    expectError(await login(sandbox, 'a'.repeat(900)), 404, 'not_found');
    expectError(await login(sandbox, 'weird id/../%00'), 404, 'not_found');
  });

  it('answers a path of no operation with 404, and a method its path lacks with 405 and Allow', async () => {
    expectError(await call(sandbox, 'GET', '/zz_not_in_document'), 404, 'not_found');
    // A path of the document, with every method of HTTP it does not have.
    const [first] = operations(loadSandboxDocument());
    const path = first!.path.replace(/\{[^}]+\}/g, 'x');
    const allowed = [...operations(loadSandboxDocument())].filter((o) => o.path === first!.path).map((o) => o.method);
    // (fetch sends neither TRACE nor a HEAD with a body to read; OPTIONS is CORS's.)
    for (const method of HTTP_METHODS.filter(
      (m) => !allowed.includes(m) && !['head', 'options', 'trace'].includes(m),
    )) {
      const r = await call(sandbox, method.toUpperCase(), path);
      expectError(r, 405, 'method_not_allowed');
      expect(r.headers.get('allow')).toBe(allowed.map((m) => m.toUpperCase()).join(', '));
    }
    // No HEAD twin of a GET (a log stream's would open a stream with no body to carry it).
    const head = await fetch(`${sandbox.url}/browsers/${REFS.browsers.main.id}/logs/stream?source=path&path=/x`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${TOKENS.owner}` },
    });
    expect(head.status).toBe(405);
  });
});

describe('resilience', () => {
  it('keeps serving with its state intact after every kind of bad input', async () => {
    const before = await rename(sandbox, REFS.profiles.defaultProject.id, { name: 'stable-name' });
    expect(before.status).toBe(200);
    await Promise.all([
      call(sandbox, 'PATCH', profilePath, { raw: '{', headers: json }),
      call(sandbox, 'PATCH', profilePath, { raw: 'x'.repeat(20_000), headers: json }),
      call(sandbox, 'PATCH', profilePath, { body: { name: '' } }),
      call(sandbox, 'PATCH', '/profiles/%ZZ', { body: { name: 'y' } }),
      call(sandbox, 'GET', `/browsers/${REFS.browsers.main.id}/logs/stream?source=path`),
      rawRequest(sandbox.url, patch('Transfer-Encoding: chunked\r\n', '8\r\n{"name":\r\n0\r\n\r\n')),
    ]);
    const state = (await call(sandbox, 'GET', '/_sandbox/state', { token: null })).body as {
      resources: Record<string, Array<{ id: string; name: string }>>;
    };
    expect(state.resources['/profiles']!.find((p) => p.id === REFS.profiles.defaultProject.id)?.name).toBe(
      'stable-name',
    );
    expect((await rename(sandbox, 'stable-name', { name: 'still-works' })).status).toBe(200);
  });

  it('survives clients that disconnect mid-request', async () => {
    const connection = await RawConnection.open(sandbox.url);
    connection.write(patch('Content-Length: 100\r\n', '{"name":'));
    connection.destroy();
    expect((await rename(sandbox, REFS.profiles.defaultProject.id, { name: 'after-disconnect' })).status).toBe(200);
  });
});
