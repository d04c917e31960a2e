import { validateError } from '@browser-cloud/api-types/validators';
import { describe, expect, it } from 'vitest';
import { checkRequest, type RequestParts } from './check-request.js';
import { documentRules } from './document-operations.js';

const rules = documentRules();
const TOKEN = { authorization: 'Bearer test-token' };
const JSON_TYPE = { ...TOKEN, 'content-type': 'application/json' };
const LOGIN = '/auth/connections/ac_1/login';
const RENAME = '/profiles/prof_1';
const STREAM = '/browsers/br_1/logs/stream';

function check(request: Partial<RequestParts> & { json?: unknown; text?: string }) {
  const body =
    request.text !== undefined
      ? Buffer.from(request.text)
      : 'json' in request
        ? Buffer.from(JSON.stringify(request.json))
        : request.body;
  return checkRequest(rules, {
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    headers: request.headers ?? TOKEN,
    body,
  });
}

/** The refusal's status and detail messages, after checking that its body is an Error body. */
function refused(request: Parameters<typeof check>[0]): { status: number; message: string; details: string[] } {
  const refusal = check(request);
  if (refusal === undefined) throw new Error('the request was let through');
  expect(validateError(refusal.body), JSON.stringify(validateError.errors)).toBe(true);
  return {
    status: refusal.status,
    message: refusal.body.message,
    details: (refusal.body.details ?? []).map((d) => d.message ?? ''),
  };
}

/** How @browser-cloud/api-types' toIssues words each rule (the wording the client and the sandbox use). */
const WORDING: Record<string, string> = {
  required: 'is required',
  oneOf: 'must provide exactly one of',
  additionalProperties: 'is not a known property',
  type: 'must be',
  maxLength: 'must be at most',
  minLength: 'must not be empty',
  not: 'are not allowed in this combination',
  enum: 'must be one of',
};

describe('checkRequest: what the document forbids is refused with an Error body', () => {
  it.each([
    ['a missing required field', 'PATCH', RENAME, {}, 'name', 'required'],
    ['neither member of the ProxyRef oneOf', 'POST', LOGIN, { proxy: {} }, 'proxy', 'oneOf'],
    ['an unknown property', 'POST', LOGIN, { foo: 1 }, 'foo', 'additionalProperties'],
    ['an unknown property beside a valid one', 'PATCH', RENAME, { name: 'a', foo: 1 }, 'foo', 'additionalProperties'],
    ['a wrong type', 'POST', LOGIN, { record_session: 'yes' }, 'record_session', 'type'],
    ['a name of 256 characters', 'PATCH', RENAME, { name: 'a'.repeat(256) }, 'name', 'maxLength'],
    ['an empty name', 'PATCH', RENAME, { name: '' }, 'name', 'minLength'],
    ['both members of the ProxyRef oneOf', 'POST', LOGIN, { proxy: { id: 'a', name: 'b' } }, 'proxy', 'oneOf'],
    [
      'enabled:false with browser categories',
      'POST',
      LOGIN,
      { browser_telemetry: { enabled: false, browser: { console: { enabled: true } } } },
      'browser_telemetry',
      'not',
    ],
    ['a JSON null login body', 'POST', LOGIN, null, 'body', 'type'],
    ['a JSON null rename body', 'PATCH', RENAME, null, 'body', 'type'],
  ])('%s → 400 naming the field and the rule', (_what, method, url, json, field, rule) => {
    const { status, message, details } = refused({ method, url, headers: JSON_TYPE, json });
    expect(status).toBe(400);
    expect(message).toBe('the request body is invalid');
    expect(
      details.some((d) => d.startsWith(`${field}:`) && d.includes(WORDING[rule]!)),
      details.join(' | '),
    ).toBe(true);
  });

  it.each([
    ['source=path without path', '?source=path', 'path', 'required'],
    ['source=supervisor without supervisor_process', '?source=supervisor', 'supervisor_process', 'required'],
    ['no source', '?path=%2Fx', 'source', 'required'],
    ['a source outside the enum', '?source=kernel&path=%2Fx', 'source', 'enum'],
    ['follow that is not a boolean', '?source=path&path=%2Fx&follow=yes', 'follow', 'type'],
    ['an empty path', '?source=path&path=', 'path', 'minLength'],
    ['a repeated path', '?source=path&path=%2Fa&path=%2Fb', 'path', 'type'],
    ['an unknown query parameter', '?source=path&path=%2Fx&tail=10', 'tail', 'additionalProperties'],
  ])('the log stream query: %s → 400 naming the parameter and the rule', (_what, search, field, rule) => {
    const { status, message, details } = refused({ url: `${STREAM}${search}` });
    expect(status).toBe(400);
    expect(message).toBe('the query is invalid');
    expect(
      details.some((d) => d.startsWith(`${field}:`) && d.includes(WORDING[rule]!)),
      details.join(' | '),
    ).toBe(true);
  });

  it.each([
    ['text/plain', { ...TOKEN, 'content-type': 'text/plain' }, '"text/plain"'],
    ['no content type', TOKEN, 'none'],
    ['a form', { ...TOKEN, 'content-type': 'application/x-www-form-urlencoded' }, 'x-www-form-urlencoded'],
  ])('a body sent as %s → 400 naming content-type', (_what, headers, got) => {
    const { status, message, details } = refused({ method: 'POST', url: LOGIN, headers, text: '{}' });
    expect(status).toBe(400);
    expect(message).toBe('the request headers are invalid');
    expect(details).toEqual([expect.stringMatching(/^content-type: must be application\/json \(got .+\)$/)]);
    expect(details[0]).toContain(got);
  });

  it('accepts application/json with parameters and in any case', () => {
    const headers = { ...TOKEN, 'content-type': 'Application/JSON; charset=utf-8' };
    expect(check({ method: 'POST', url: LOGIN, headers, text: '{}' })).toBeUndefined();
  });

  it.each([
    ['no Authorization header', {}],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['only spaces after the scheme', { authorization: 'Bearer    ' }],
  ])('%s → 401 before any other check', (_what, headers) => {
    // The body is invalid too: the token is checked first, as the service does.
    const { status, message } = refused({ method: 'PATCH', url: RENAME, headers, json: null });
    expect(status).toBe(401);
    expect(message).toBe('missing or invalid authorization token');
  });

  it.each([
    ['a value with spaces (the official SDK tests send it)', 'Bearer My API Key'],
    ['a plain token', 'Bearer test-token'],
    ['the scheme in lower case', 'bearer t'],
  ])('accepts any non-empty bearer credentials: %s', (_what, authorization) => {
    expect(
      check({ method: 'POST', url: LOGIN, headers: { authorization, 'content-type': 'application/json' }, text: '{}' }),
    ).toBeUndefined();
  });

  it('names no token in any answer', () => {
    const headers = { authorization: 'Bearer s3cr3t-t0ken', 'content-type': 'text/plain' };
    const refusal = check({ method: 'POST', url: LOGIN, headers, text: 's3cr3t-t0ken' });
    expect(JSON.stringify(refusal)).not.toContain('s3cr3t');
  });

  it('refuses a body that is not JSON, not UTF-8, missing where required, or sent where none is taken', () => {
    expect(refused({ method: 'POST', url: LOGIN, headers: JSON_TYPE, text: '{nope' }).details).toEqual([
      expect.stringMatching(/^body: is not valid JSON \(.+\)$/),
    ]);
    expect(
      refused({ method: 'POST', url: LOGIN, headers: JSON_TYPE, body: Buffer.from([0x7b, 0xff, 0x7d]) }).details,
    ).toEqual(['body: is not valid UTF-8']);
    expect(refused({ method: 'PATCH', url: RENAME, headers: JSON_TYPE }).details).toEqual(['body: is required']);
    expect(refused({ url: `${STREAM}?source=path&path=%2Fx`, headers: JSON_TYPE, text: '{}' }).details).toEqual([
      'body: is not allowed (the operation takes no body)',
    ]);
  });

  it('refuses a path parameter that is not valid percent-encoding', () => {
    const { status, message, details } = refused({
      method: 'PATCH',
      url: '/profiles/%E0%A4%A',
      headers: JSON_TYPE,
      json: { name: 'a' },
    });
    expect(status).toBe(400);
    expect(message).toBe('the path is invalid');
    expect(details).toEqual(['id_or_name: is not valid percent-encoding']);
  });

  it('refuses an empty path parameter by its own rule, not as an unknown path', () => {
    const { status, message, details } = refused({
      method: 'PATCH',
      url: '/profiles/',
      headers: JSON_TYPE,
      json: { name: 'a' },
    });
    expect(status).toBe(400);
    expect(message).toBe('the path is invalid');
    expect(details).toEqual(['id_or_name: must not be empty']);
  });

  it('answers a path outside the document 404 and a method it does not have 405, with Allow', () => {
    expect(refused({ url: '/profiles' })).toMatchObject({ status: 404 });
    const refusal = check({ method: 'DELETE', url: RENAME });
    expect(refusal).toMatchObject({ status: 405, headers: { allow: 'PATCH' } });
  });

  it('keeps a long value out of the answer beyond a bounded excerpt', () => {
    const url = `${STREAM}?source=path&path=%2Fx&${'x'.repeat(5000)}=1`;
    const { details } = refused({ url });
    expect(details[0]!.length).toBeLessThan(600);
    expect(details[0]).toMatch(/^x+… \(50\d\d characters\)$/);
  });
});

describe('checkRequest: what the document allows goes to Prism', () => {
  it.each([
    ['a login without a body', 'POST', LOGIN, TOKEN, undefined],
    ['a login with {}', 'POST', LOGIN, JSON_TYPE, {}],
    ['a login by proxy id', 'POST', LOGIN, JSON_TYPE, { proxy: { id: 'prx_1' } }],
    ['a login with null telemetry', 'POST', LOGIN, JSON_TYPE, { browser_telemetry: null, record_session: false }],
    ['telemetry off alone', 'POST', LOGIN, JSON_TYPE, { browser_telemetry: { enabled: false } }],
    ['a rename to 255 characters', 'PATCH', RENAME, JSON_TYPE, { name: 'n'.repeat(255) }],
    ['a rename by an encoded name', 'PATCH', '/profiles/checkout%20agent', JSON_TYPE, { name: 'a' }],
  ])('%s', (_what, method, url, headers, json) => {
    const request = json === undefined ? { method, url, headers } : { method, url, headers, json };
    expect(check(request)).toBeUndefined();
  });

  it.each([
    '?source=path&path=%2Fvar%2Flog%2Fx.log',
    '?source=path&path=%2Fx&follow=true',
    '?source=supervisor&supervisor_process=chromium&follow=false',
  ])('a log stream with %s', (search) => {
    expect(check({ url: `${STREAM}${search}` })).toBeUndefined();
  });
});
