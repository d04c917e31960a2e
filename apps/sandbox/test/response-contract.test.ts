import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../src/index.js';
import { loadOpenApiDocument, schemaValidator } from '@browser-cloud/openapi-document';
import { REFS, TOKENS, call, inspect, login, rename, start, StreamReader } from './helpers.js';

/**
 * Every API response body of a broad session is checked against the document by full Ajv
 * (formats asserted): success bodies against their schema, every failure against Error.
 */
const document = loadOpenApiDocument();
const validateError = schemaValidator(document, '/components/schemas/Error');
const validateLoginResponse = schemaValidator(document, '/components/schemas/LoginResponse');
const validateProfile = schemaValidator(document, '/components/schemas/Profile');
const validateLogEvent = schemaValidator(document, '/components/schemas/LogEvent');

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start({ bodyLimit: 2048 });
});
afterAll(() => sandbox.close());

type Seen = { what: string; status: number; body: unknown };

function check(seen: Seen, success: (body: unknown) => boolean, errors: () => unknown): void {
  if (seen.status === 200) {
    expect(success(seen.body), `${seen.what}: ${JSON.stringify(errors())}`).toBe(true);
  } else {
    expect(validateError(seen.body), `${seen.what} (${seen.status}): ${JSON.stringify(validateError.errors)}`).toBe(
      true,
    );
    // Exactly the document's properties.
    for (const key of Object.keys(seen.body as object))
      expect(['code', 'message', 'details', 'inner_error']).toContain(key);
  }
}

describe('responses validate against the document', () => {
  it('login', async () => {
    const C = REFS.authConnections;
    const bodies: Array<[string, unknown, string?]> = [
      [C.withCredentials, undefined],
      [C.withCredentials, {}],
      [C.withoutCredentials, { proxy: { id: REFS.proxies.datacenter.id }, record_session: true }],
      [C.telemetryOff, { proxy: { name: REFS.proxies.ambiguousName } }],
      [C.telemetryOff, { proxy: { id: 'a', name: 'b' }, extra: 1 }],
      [C.telemetryOff, { browser_telemetry: { enabled: false, browser: { page: { enabled: true } } } }],
      [C.telemetryOff, { browser_telemetry: { enabled: true, browser: { page: { enabled: true } } } }],
      ['ac_missing', {}],
      [C.otherProject, {}],
      [C.withoutCredentials, {}, TOKENS.readonly],
      [C.withoutCredentials, {}, TOKENS.projectsDisabled],
      [C.withoutCredentials, {}, 'unknown'],
    ];
    const statuses = new Set<number>();
    for (const [connection, body, token] of bodies) {
      const r = await login(sandbox, connection, body, token);
      statuses.add(r.status);
      check(
        { what: `login ${connection} ${JSON.stringify(body)}`, ...r },
        validateLoginResponse,
        () => validateLoginResponse.errors,
      );
    }
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404, 409]);
  });

  it('rename', async () => {
    const P = REFS.profiles;
    const cases: Array<[string, unknown, string?]> = [
      [P.defaultProject.id, { name: 'contract-a' }],
      ['contract-a', { name: 'contract-b' }],
      [P.unnamed.id, { name: 'contract-c' }],
      [P.unscoped.id, { name: 'contract-b' }],
      [P.unscoped.id, { name: 'x'.repeat(256) }],
      [P.unscoped.id, { name: 'x'.repeat(3000) }],
      [P.unscoped.id, {}],
      ['nope', { name: 'x' }],
      [P.defaultProject.id, { name: 'x' }, TOKENS.readonly],
      [P.defaultProject.id, { name: 'x' }, 'unknown'],
    ];
    const statuses = new Set<number>();
    for (const [idOrName, body, token] of cases) {
      const r = await rename(sandbox, idOrName, body, token);
      statuses.add(r.status);
      check({ what: `rename ${idOrName}`, ...r }, validateProfile, () => validateProfile.errors);
    }
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404, 409, 413]);
  });

  it('log stream events and failures', async () => {
    await inspect(sandbox, `/browsers/${REFS.browsers.main.id}/logs`, 'POST', {
      source: 'path',
      path: REFS.browsers.main.path,
      lines: ['plain', { message: 'stamped', timestamp: '2026-11-22T21:00:00Z' }, '{"event":"not json inside"}', ''],
    });
    const reader = await StreamReader.open(
      sandbox,
      REFS.browsers.main.id,
      `source=path&path=${encodeURIComponent(REFS.browsers.main.path)}`,
    );
    await reader.finished();
    expect(reader.events).toHaveLength(7);
    for (const e of reader.events) {
      const data: unknown = JSON.parse(e.data);
      expect(validateLogEvent(data), JSON.stringify(validateLogEvent.errors)).toBe(true);
    }
    for (const path of [
      `/browsers/${REFS.browsers.main.id}/logs/stream?source=path`,
      `/browsers/br_nope/logs/stream?source=supervisor&supervisor_process=x`,
      `/browsers/${REFS.browsers.main.id}/logs/stream?source=supervisor&supervisor_process=none`,
    ]) {
      const r = await call(sandbox, 'GET', path);
      check(
        { what: path, ...r },
        () => false,
        () => null,
      );
    }
  });
});
