import {
  validateError,
  validateLoginResponse,
  validateLogEvent,
  validateProfile,
} from '@browser-cloud/api-types/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMock } from './start-mock.js';
import { getAt, loadOpenApiDocument } from '@browser-cloud/openapi-document';

const document = loadOpenApiDocument();
/** A named example of the login's 200 answer, as the document holds it. */
const loginExample = (name: string) =>
  getAt(
    document,
    `#/paths/~1auth~1connections~1{id}~1login/post/responses/200/content/application~1json/examples/${name}/value`,
  ) as { flow_type: string };

// One mock (Prism + front) for the file: Prism takes seconds to start on a loaded machine.
let mock: MockServer;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.close();
});

const AUTH = { authorization: 'Bearer test-token' };
const JSON_TYPE = { ...AUTH, 'content-type': 'application/json' };
const LOGIN = '/auth/connections/ac_1/login';
const RENAME = '/profiles/prof_1';
const STREAM = '/browsers/br_1/logs/stream';

function send(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${mock.url}${path}`, init);
}

describe('the mock refuses every kind of request the document forbids', () => {
  // Each breaks exactly one rule. Prism alone lets the starred ones through (200), and answers
  // the others with the document's 400 example, whose detail names an unrelated field.
  it.each([
    ['a missing required field', 'PATCH', RENAME, JSON_TYPE, '{}'],
    ['an unknown property', 'POST', LOGIN, JSON_TYPE, '{"zz_not_in_document":1}'],
    ['a wrong type', 'POST', LOGIN, JSON_TYPE, '{"record_session":"yes"}'],
    ['a name over 255 characters', 'PATCH', RENAME, JSON_TYPE, JSON.stringify({ name: 'a'.repeat(256) })],
    ['an empty name', 'PATCH', RENAME, JSON_TYPE, '{"name":""}'],
    ['both members of ProxyRef', 'POST', LOGIN, JSON_TYPE, '{"proxy":{"id":"a","name":"b"}}'],
    ['neither member of ProxyRef', 'POST', LOGIN, JSON_TYPE, '{"proxy":{}}'],
    [
      'enabled:false with browser',
      'POST',
      LOGIN,
      JSON_TYPE,
      '{"browser_telemetry":{"enabled":false,"browser":{"console":{"enabled":true}}}}',
    ],
    ['* source=path without path', 'GET', `${STREAM}?source=path`, AUTH, undefined],
    ['* source=supervisor without supervisor_process', 'GET', `${STREAM}?source=supervisor`, AUTH, undefined],
    ['* an unknown query parameter', 'GET', `${STREAM}?source=path&path=%2Fx&zz_not_in_document=5`, AUTH, undefined],
    ['* a JSON null login body', 'POST', LOGIN, JSON_TYPE, 'null'],
    ['a JSON null rename body', 'PATCH', RENAME, JSON_TYPE, 'null'],
    ['a wrong content type', 'POST', LOGIN, { ...AUTH, 'content-type': 'text/plain' }, '{}'],
    ['* a body that is not JSON', 'POST', LOGIN, JSON_TYPE, '{nope'],
  ])('%s → 400 with an Error body', async (_what, method, path, headers, body) => {
    const response = await send(path, { method, headers, ...(body === undefined ? {} : { body }) });
    expect(response.status).toBe(400);
    const error = await response.json();
    expect(validateError(error), JSON.stringify(validateError.errors)).toBe(true);
    expect(error.code).toBe('bad_request');
    expect(error.details.length).toBeGreaterThan(0);
    for (const detail of error.details) expect(detail.code).toBe('invalid_input');
  });

  it.each([
    ['login', 'POST', LOGIN],
    ['rename', 'PATCH', RENAME],
    ['log stream', 'GET', `${STREAM}?source=path&path=%2Fx`],
  ])('no token on the %s → 401 with an Error body', async (_what, method, path) => {
    const response = await send(path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'GET' ? null : '{"name":"a"}',
    });
    expect(response.status).toBe(401);
    const error = await response.json();
    expect(validateError(error)).toBe(true);
    expect(error.code).toBe('unauthorized');
  });
});

describe("the mock still gives Prism's answers to valid requests", () => {
  it('a login: the example LOGIN flow, and REAUTH when asked for by Prefer', async () => {
    const login = await send(LOGIN, { method: 'POST', headers: JSON_TYPE, body: '{}' });
    expect(login.status).toBe(200);
    const flow = await login.json();
    expect(validateLoginResponse(flow)).toBe(true);
    expect(flow.flow_type).toBe(loginExample('login').flow_type);
    const reauth = await send(LOGIN, { method: 'POST', headers: { ...AUTH, prefer: 'example=reauth' } });
    expect((await reauth.json()).flow_type).toBe(loginExample('reauth').flow_type);
  });

  it('Prefer: code=409 picks the documented conflict', async () => {
    const response = await send(LOGIN, { method: 'POST', headers: { ...JSON_TYPE, prefer: 'code=409' }, body: '{}' });
    expect(response.status).toBe(409);
    const error = await response.json();
    expect(validateError(error)).toBe(true);
    expect(error.code).toBe('conflict');
  });

  it('a rename answers the example profile', async () => {
    const response = await send(RENAME, { method: 'PATCH', headers: JSON_TYPE, body: '{"name":"checkout-agent-eu"}' });
    expect(response.status).toBe(200);
    expect(validateProfile(await response.json())).toBe(true);
  });

  it('the log stream answers the SSE example: two log events', async () => {
    const response = await send(`${STREAM}?source=supervisor&supervisor_process=chromium&follow=true`, {
      headers: { ...AUTH, accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)));
    expect(events).toHaveLength(2);
    for (const event of events) expect(validateLogEvent(event)).toBe(true);
  });
});
