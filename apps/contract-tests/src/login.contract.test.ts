import { AuthenticationError, NotFoundError, ValidationError } from '@browser-cloud/client';
import { expect, it } from 'vitest';
import { expectApiError, failure } from './harness/api-errors.js';
import { client, clientWithToken, prefer, raw } from './harness/clients.js';
import { FLOW } from './harness/flow-types.js';
import { documentValidator } from './harness/observed-fetch.js';
import { describeWith } from './harness/resources.js';
import { MOCK_ONLY_REASON, mockOnly, mockOnlyTitle, statefulOnlyTitle, target } from './harness/target.js';

const LOGIN_RESPONSE = '#/components/schemas/LoginResponse';

// The flow types on CONTRACT_CONNECTION_ID and CONTRACT_REAUTH_CONNECTION_ID, the 409 and the
// proxy rules on a live target are planned cases of src/engine/seed-rules.ts, run first in
// src/generated/loginAuthConnection.contract.test.ts: no case here starts a flow off the mock.

describeWith(target.resources, ['connectionId'], 'loginAuthConnection', ({ connectionId: connection }) => {
  it.skipIf(mockOnly)(mockOnlyTitle('starts a LOGIN flow whose body validates against the document'), async () => {
    const flow = await client.auth.connections.login(connection, {}, { headers: { Prefer: 'example=login' } });
    expect(documentValidator.validateAt(LOGIN_RESPONSE, flow)).toEqual([]);
    expect(flow.flow_type).toBe(FLOW.login);
  });

  it.skipIf(mockOnly)(mockOnlyTitle('starts a REAUTH flow whose body validates against the document'), async () => {
    const flow = await client.auth.connections.login(
      connection,
      { record_session: true },
      { headers: { Prefer: 'example=reauth' } },
    );
    expect(documentValidator.validateAt(LOGIN_RESPONSE, flow)).toEqual([]);
    expect(flow.flow_type).toBe(FLOW.reauth);
  });

  it.skipIf(mockOnly)(mockOnlyTitle('accepts every documented request body shape'), async () => {
    const bodies = [
      {},
      { proxy: { id: 'prx_1' } },
      {
        proxy: { name: 'residential-us-east' },
        browser_telemetry: { enabled: true, browser: { console: { enabled: true } } },
      },
      { browser_telemetry: { enabled: false } },
      { browser_telemetry: null },
    ];
    for (const body of bodies) {
      const flow = await client.auth.connections.login(connection, body);
      expect(Object.values(FLOW)).toContain(flow.flow_type);
    }
  });

  it.skipIf(mockOnly).each([400, 401, 403, 404, 409, 500])(
    mockOnlyTitle('answers %i with its error class, code and message'),
    async (status) => {
      await expectApiError(client.auth.connections.login(connection, {}, prefer(status)), status);
    },
  );

  it.skipIf(mockOnly)(mockOnlyTitle('makes projects_disabled easy to test for'), async () => {
    const error = await failure(
      client.auth.connections.login(connection, {}, { headers: { Prefer: 'code=404, example=projects_disabled' } }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe('projects_disabled');
  });

  it('refuses a body with an unknown property before the network, and the server refuses it too', async () => {
    await expect(client.auth.connections.login(connection, { proxy_id: 'prx_1' } as never)).rejects.toBeInstanceOf(
      ValidationError,
    );
    const sent = await raw('POST', `/auth/connections/${connection}/login`, {
      body: JSON.stringify({ proxy_id: 'prx_1' }),
    });
    expect(sent.status).toBe(400);
    expect(sent.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it.each([
    ['both id and name', { id: 'prx_1', name: 'eu' }],
    ['neither id nor name', {}],
  ])('refuses a ProxyRef with %s before the network, and the server refuses it too', async (_what, proxy) => {
    const error = await failure(client.auth.connections.login(connection, { proxy } as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect(String((error as unknown as ValidationError).message)).toContain('proxy');
    const sent = await raw('POST', `/auth/connections/${connection}/login`, { body: JSON.stringify({ proxy }) });
    expect(sent.status).toBe(400);
  });

  it('refuses telemetry enabled=false with categories before the network, and the server refuses it too', async () => {
    const body = { browser_telemetry: { enabled: false, browser: { console: { enabled: true } } } };
    await expect(client.auth.connections.login(connection, body as never)).rejects.toBeInstanceOf(ValidationError);
    const sent = await raw('POST', `/auth/connections/${connection}/login`, { body: JSON.stringify(body) });
    expect(sent.status).toBe(400);
  });

  it('answers 401 without a token', async () => {
    const sent = await raw('POST', `/auth/connections/${connection}/login`, { body: '{}', token: null });
    expect(sent.status).toBe(401);
    expect(sent.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it.skipIf(target.mode === 'mock')(
    statefulOnlyTitle('answers 401 to an unknown token through the client'),
    async () => {
      const error = await failure(clientWithToken('not-a-token').auth.connections.login(connection));
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(JSON.stringify(error)).not.toContain('not-a-token');
      expect(String(error)).not.toContain('not-a-token');
    },
  );
});

if (mockOnly) console.info(`[contract] loginAuthConnection: Prefer-based cases skipped: ${MOCK_ONLY_REASON}`);
