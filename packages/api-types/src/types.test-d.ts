import { describe, expectTypeOf, it } from 'vitest';
import type {
  BrowserTelemetryCategoriesConfig,
  FlowType,
  LogEvent,
  LoginRequest,
  LoginResponse,
  LogStreamQueryBySource,
  Profile,
  RenameProfileRequest,
  TelemetryCategory,
} from './index.js';

// These check how the generator maps the document (an enum to a union of its literals, a closed
// object to a type that refuses other keys, optional and nullable properties), not the document's
// contents: which values and properties there are is the document's, and the validators' tests
// read it from there.
describe('generated types', () => {
  it('name the login flow types: a union of literals, not string', () => {
    expectTypeOf<FlowType>().toEqualTypeOf<LoginResponse['flow_type']>();
    expectTypeOf<string>().not.toExtend<FlowType>();
    expectTypeOf<FlowType>().toExtend<string>();
    // @ts-expect-error a flow_type outside the enum
    const bad: LoginResponse['flow_type'] = 'not a flow type';
    void bad;
  });

  it('require a name on rename and reject unknown properties', () => {
    const ok: RenameProfileRequest = { name: 'n' };
    void ok;
    // @ts-expect-error missing name
    const missing: RenameProfileRequest = {};
    // @ts-expect-error unknown property
    const extra: RenameProfileRequest = { name: 'n', zz_not_in_document: 'red' };
    void missing;
    void extra;
  });

  it('type the login request, its nullable telemetry and its closed objects', () => {
    const body: LoginRequest = { proxy: { id: 'p' }, record_session: true, browser_telemetry: null };
    void body;
    expectTypeOf<NonNullable<LoginRequest['browser_telemetry']>['enabled']>().toEqualTypeOf<boolean | undefined>();
    // @ts-expect-error unknown property
    const unknown: LoginRequest = { zz_not_in_document: 'p' };
    // @ts-expect-error a category outside the nine
    const category: LoginRequest = { browser_telemetry: { browser: { zz_not_in_document: { enabled: true } } } };
    void unknown;
    void category;
  });

  it('name the telemetry categories: the keys of the categories object, literals, not string', () => {
    expectTypeOf<TelemetryCategory>().toEqualTypeOf<keyof BrowserTelemetryCategoriesConfig>();
    expectTypeOf<string>().not.toExtend<TelemetryCategory>();
  });

  it('tie the log stream parameters to their source', () => {
    const byPath: LogStreamQueryBySource = { source: 'path', path: '/var/log/x', follow: true };
    const bySupervisor: LogStreamQueryBySource = { source: 'supervisor', supervisor_process: 'chromium' };
    void byPath;
    void bySupervisor;
    // @ts-expect-error source path without path
    const missing: LogStreamQueryBySource = { source: 'path' };
    // @ts-expect-error unknown source
    const wrong: LogStreamQueryBySource = { source: 'zz_not_in_document', path: '/x' };
    void missing;
    void wrong;
  });

  it('type required, optional and nullable properties as the document marks them', () => {
    expectTypeOf<Profile['name']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Profile['id']>().toEqualTypeOf<string>();
    expectTypeOf<LogEvent['timestamp']>().toEqualTypeOf<string>();
    // @ts-expect-error a closed object refuses a key the document does not declare
    const extra: LogEvent = { event: 'log', timestamp: 't', message: 'm', zz_not_in_document: true };
    void extra;
  });
});
