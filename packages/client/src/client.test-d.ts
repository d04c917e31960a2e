import type { FlowType, LogEvent, LoginResponse, Profile, TelemetryCategory } from '@browser-cloud/api-types';
import { describe, expectTypeOf, it } from 'vitest';
import { createClient } from './connection.js';
import { createRawClient } from './raw.js';
import { resolveTelemetry } from './telemetry/resolve-telemetry.js';
import type {
  BrowserCloudClient,
  BrowserLogs,
  BrowserLogsStreamOptions,
  Connection,
  LogStream,
  loginAuthConnection,
  renameProfile,
  StreamOptions,
  streamBrowserLogs,
} from './index.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:4010', token: 't' });

describe('login', () => {
  it('resolves to the generated LoginResponse', () => {
    expectTypeOf(client.auth.connections.login('ac_1')).resolves.toEqualTypeOf<LoginResponse>();
    expectTypeOf<LoginResponse['flow_type']>().toEqualTypeOf<FlowType>();
  });

  it('accepts the documented bodies', () => {
    void client.auth.connections.login('ac_1', {});
    void client.auth.connections.login('ac_1', { proxy: { id: 'prx_1' } });
    void client.auth.connections.login('ac_1', { proxy: { name: 'residential' }, record_session: true });
    void client.auth.connections.login('ac_1', { browser_telemetry: null });
    void client.auth.connections.login('ac_1', {
      browser_telemetry: { enabled: true, browser: { console: { enabled: true } } },
    });
    // A category without enabled: at its default.
    void client.auth.connections.login('ac_1', { browser_telemetry: { browser: { console: {} } } });
  });

  it('rejects wrong bodies', () => {
    // @ts-expect-error flow_type is part of the response, not of the request
    void client.auth.connections.login('ac_1', { flow_type: 'LOGIN' });
    // @ts-expect-error unknown property
    void client.auth.connections.login('ac_1', { zz_not_in_document: true });
    void client.auth.connections.login('ac_1', {
      // @ts-expect-error a category the document lacks
      browser_telemetry: { browser: { zz_not_a_category: { enabled: true } } },
    });
    // @ts-expect-error a category flag is a boolean
    void client.auth.connections.login('ac_1', { browser_telemetry: { browser: { console: { enabled: 'yes' } } } });
    // @ts-expect-error record_session is a boolean
    void client.auth.connections.login('ac_1', { record_session: 'yes' });
    // @ts-expect-error the id is a string
    void client.auth.connections.login(1);
  });

  it('flow_type compares only with its values', async () => {
    const response = await client.auth.connections.login('ac_1');
    // @ts-expect-error no overlap: not a flow type
    if (response.flow_type === 'ZZ_NOT_A_FLOW_TYPE') return;
  });
});

describe('rename', () => {
  it('resolves to the generated Profile', () => {
    expectTypeOf(client.profiles.rename('prof_1', { name: 'n' })).resolves.toEqualTypeOf<Profile>();
  });

  it('rejects wrong bodies', () => {
    // @ts-expect-error missing name
    void client.profiles.rename('prof_1', {});
    // @ts-expect-error missing body
    void client.profiles.rename('prof_1');
    // @ts-expect-error unknown property
    void client.profiles.rename('prof_1', { name: 'n', zz_not_in_document: 'd' });
    // @ts-expect-error name is a string
    void client.profiles.rename('prof_1', { name: null });
  });

  it('takes per-call options', () => {
    void client.profiles.rename(
      'p',
      { name: 'n' },
      { signal: AbortSignal.abort(), timeoutMs: 5, maxRetries: 0, headers: { a: 'b' } },
    );
    // @ts-expect-error unknown option
    void client.profiles.rename('p', { name: 'n' }, { retries: 3 });
  });
});

describe('log stream', () => {
  it('is an async iterable of LogEvent with lastEventId', () => {
    const stream = client.browsers.logs.stream('br_1', { source: 'path', path: '/var/log/x.log', follow: true });
    expectTypeOf(stream).toEqualTypeOf<LogStream>();
    expectTypeOf(stream).toMatchTypeOf<AsyncIterable<LogEvent>>();
    expectTypeOf(stream.lastEventId).toEqualTypeOf<string>();
  });

  it('rejects wrong queries', () => {
    // @ts-expect-error source 'path' without path
    client.browsers.logs.stream('br_1', { source: 'path' });
    // @ts-expect-error source 'supervisor' without supervisor_process
    client.browsers.logs.stream('br_1', { source: 'supervisor', path: '/x' });
    // @ts-expect-error unknown source
    client.browsers.logs.stream('br_1', { source: 'zz_not_a_source', path: '/x' });
    // @ts-expect-error unknown property
    client.browsers.logs.stream('br_1', { source: 'path', path: '/x', zz_not_in_document: 10 });
    // @ts-expect-error missing query
    client.browsers.logs.stream('br_1');
  });
});

describe('the standalone functions and the names of earlier releases', () => {
  it('take a connection, then the arguments of the method, and answer the same', () => {
    type Method<F> = F extends (...args: infer A) => infer R ? [A, R] : never;
    type Standalone<F> = F extends (connection: Connection, ...args: infer A) => infer R ? [A, R] : never;
    expectTypeOf<Standalone<typeof loginAuthConnection>>().toEqualTypeOf<
      Method<BrowserCloudClient['auth']['connections']['login']>
    >();
    expectTypeOf<Standalone<typeof renameProfile>>().toEqualTypeOf<Method<BrowserCloudClient['profiles']['rename']>>();
    expectTypeOf<Standalone<typeof streamBrowserLogs>>().toEqualTypeOf<Method<BrowserLogs['stream']>>();
    expectTypeOf<BrowserLogsStreamOptions>().toEqualTypeOf<StreamOptions>();
  });
});

describe('createRawClient', () => {
  it('is openapi-fetch typed by the document', async () => {
    const raw = createRawClient(client);
    const { data } = await raw.PATCH('/profiles/{id_or_name}', {
      params: { path: { id_or_name: 'p' } },
      body: { name: 'n' },
    });
    expectTypeOf(data).toEqualTypeOf<Profile | undefined>();
    // @ts-expect-error not a path of the document
    void raw.GET('/zz_not_in_document');
  });
});

describe('resolveTelemetry', () => {
  it('takes a config or null and a context, and returns categories', () => {
    expectTypeOf(resolveTelemetry({ enabled: true }, { mode: 'create' })).toEqualTypeOf<TelemetryCategory[]>();
    resolveTelemetry(null, { mode: 'update', current: ['control'] });
    resolveTelemetry(undefined, { mode: 'update', current: null });
    // @ts-expect-error update needs current
    resolveTelemetry({}, { mode: 'update' });
    // @ts-expect-error not a category
    resolveTelemetry({}, { mode: 'update', current: ['zz_not_a_category'] });
  });
});
