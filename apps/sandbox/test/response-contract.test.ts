import {
  findResponse,
  loadOpenApiDocument,
  schemaValidator,
  type ValidateFunction,
} from '@browser-cloud/openapi-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestChecker, isRefusal } from '@browser-cloud/request-checker';
import type { RunningSandbox } from '../src/index.js';
import { REFS, TOKENS, call, inspect, login, rename, start, StreamReader } from './helpers.js';

/**
 * Every API response body of a broad session is checked against the document by full Ajv
 * (formats asserted): against the schema of the answer the operation documents for its status,
 * found through the operations model (an undocumented status against Error).
 */
const document = loadOpenApiDocument();
const checker = createRequestChecker(document);

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await start({ bodyLimit: 2048 });
});
afterAll(() => sandbox.close());

/** The operation `METHOD path` names, as the sandbox routes it. */
function operationOf(method: string, path: string) {
  const match = checker.route(method, path.split('?')[0] ?? '');
  if (isRefusal(match)) throw new Error(`${method} ${path} is no operation of the document`);
  return match.operation;
}

/** Asserts that `answer` is the body the operation of `METHOD path` documents for its status. */
function conforms(method: string, path: string, answer: { status: number; body: unknown }): void {
  const response = findResponse(operationOf(method, path), answer.status);
  const json = Object.values(response?.content ?? {}).find((media) => media.mediaType.includes('json'));
  const validate: ValidateFunction = schemaValidator(document, json?.schema?.pointer ?? '/components/schemas/Error');
  expect(validate(answer.body), `${method} ${path} (${answer.status}): ${JSON.stringify(validate.errors)}`).toBe(true);
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
      conforms('POST', `/auth/connections/${encodeURIComponent(connection)}/login`, r);
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
      conforms('PATCH', `/profiles/${encodeURIComponent(idOrName)}`, r);
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
    const eventData = operationOf('GET', `/browsers/${REFS.browsers.main.id}/logs/stream`).success?.eventData;
    const validateEvent = schemaValidator(document, eventData?.pointer ?? '');
    for (const e of reader.events) {
      const data: unknown = JSON.parse(e.data);
      expect(validateEvent(data), JSON.stringify(validateEvent.errors)).toBe(true);
    }
    for (const path of [
      `/browsers/${REFS.browsers.main.id}/logs/stream?source=path`,
      `/browsers/br_nope/logs/stream?source=supervisor&supervisor_process=x`,
      `/browsers/${REFS.browsers.main.id}/logs/stream?source=supervisor&supervisor_process=none`,
    ]) {
      const r = await call(sandbox, 'GET', path);
      expect(r.status).toBeGreaterThanOrEqual(400);
      conforms('GET', path, r);
    }
  });
});
