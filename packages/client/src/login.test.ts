import type { LoginRequest } from '@browser-cloud/api-types';
import { describe, expect, it } from 'vitest';
import { createClient } from './connection.js';
import { InvalidResponseError, ValidationError } from './errors.js';
import { json, LOGIN_RESPONSE, scriptedFetch, TOKEN } from './test-support/mock-fetch.js';

function setup() {
  const fetch = scriptedFetch(json(200, LOGIN_RESPONSE, { 'x-request-id': 'req_1' }));
  const client = createClient({ token: TOKEN, baseUrl: 'http://127.0.0.1:4010', fetch });
  return { fetch, login: client.auth.connections.login };
}

async function rejected(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('auth.connections.login', () => {
  it('reads a login response with a property the document does not know, and passes it through', async () => {
    const extra = { ...LOGIN_RESPONSE, region: 'eu-west' };
    const client = createClient({
      token: TOKEN,
      baseUrl: 'http://127.0.0.1:4010',
      fetch: scriptedFetch(json(200, extra)),
    });
    await expect(client.auth.connections.login('ac_1')).resolves.toEqual(extra);
  });

  it.each([
    ['without hosted_url', (({ hosted_url: _, ...rest }) => rest)(LOGIN_RESPONSE), 'body.hosted_url', 'required'],
    ['with an unknown flow_type', { ...LOGIN_RESPONSE, flow_type: 'ZZ_NOT_A_FLOW_TYPE' }, 'body.flow_type', 'enum'],
  ])('refuses a 200 answer %s: an InvalidResponseError naming the field', async (_what, body, field, rule) => {
    const client = createClient({
      token: TOKEN,
      baseUrl: 'http://127.0.0.1:4010',
      fetch: scriptedFetch(json(200, body)),
    });
    const error = await client.auth.connections.login('ac_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ field, rule });
    expect((error as Error).message).toMatch(
      /^The answer of POST \/auth\/connections\/ac_1\/login cannot be read as a LoginResponse: /,
    );
  });

  it('POSTs the body as JSON to /auth/connections/{id}/login and resolves to the login response', async () => {
    const { fetch, login } = setup();
    const body: LoginRequest = {
      proxy: { name: 'residential-us-east' },
      record_session: true,
      browser_telemetry: { enabled: true, browser: { console: { enabled: true } } },
    };
    await expect(login('ac_1', body)).resolves.toEqual(LOGIN_RESPONSE);
    const request = fetch.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('http://127.0.0.1:4010/auth/connections/ac_1/login');
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(await request.json()).toEqual(body);
  });

  it('sends a telemetry category without enabled (at its default), as the service accepts it', async () => {
    const { fetch, login } = setup();
    await login('ac_1', { browser_telemetry: { browser: { console: {} } } });
    expect(await fetch.requests[0]!.json()).toEqual({ browser_telemetry: { browser: { console: {} } } });
  });

  it('sends no body when none is given, and accepts null telemetry', async () => {
    const { fetch, login } = setup();
    await login('ac_1');
    expect(fetch.requests[0]?.body).toBeNull();
    expect(fetch.requests[0]?.headers.get('content-type')).toBeNull();
    await login('ac_1', { browser_telemetry: null, record_session: false });
    expect(await fetch.requests[1]?.json()).toEqual({ browser_telemetry: null, record_session: false });
  });

  it('encodes the id in the path', async () => {
    const { fetch, login } = setup();
    await login('ac/1 ?x');
    expect(fetch.requests[0]?.url).toBe('http://127.0.0.1:4010/auth/connections/ac%2F1%20%3Fx/login');
  });

  describe('bad input is stopped before the network', () => {
    const cases: Array<[string, string, unknown, Partial<ValidationError>]> = [
      ['an empty id', '', undefined, { field: 'path.id', rule: 'minLength' }],
      [
        'a ProxyRef with both id and name',
        'ac_1',
        { proxy: { id: 'p', name: 'n' } },
        {
          field: 'body.proxy',
          rule: 'oneOf',
          message: 'body.proxy: must provide exactly one of "id" or "name"',
        },
      ],
      ['a ProxyRef with neither', 'ac_1', { proxy: {} }, { field: 'body.proxy', rule: 'oneOf' }],
      [
        'enabled=false with browser categories',
        'ac_1',
        {
          browser_telemetry: { enabled: false, browser: { console: { enabled: true } } },
        },
        { field: 'body.browser_telemetry', rule: 'not' },
      ],
      [
        'an unknown top-level property',
        'ac_1',
        { flow_type: 'LOGIN' },
        { field: 'body.flow_type', rule: 'additionalProperties' },
      ],
      [
        'an unknown nested property',
        'ac_1',
        { browser_telemetry: { enabled: true, verbose: true } },
        {
          field: 'body.browser_telemetry.verbose',
          rule: 'additionalProperties',
        },
      ],
      [
        'a category outside the nine',
        'ac_1',
        { browser_telemetry: { browser: { cookies: { enabled: true } } } },
        {
          field: 'body.browser_telemetry.browser.cookies',
          rule: 'additionalProperties',
        },
      ],
      ['a wrong type', 'ac_1', { record_session: 'yes' }, { field: 'body.record_session', rule: 'type' }],
    ];
    for (const [label, id, body, expected] of cases) {
      it(label, async () => {
        const { fetch, login } = setup();
        const error = await rejected(login(id, body as LoginRequest));
        expect(error).toMatchObject(expected);
        expect(error.issues.length).toBeGreaterThan(0);
        expect(fetch).not.toHaveBeenCalled();
      });
    }
  });
});
