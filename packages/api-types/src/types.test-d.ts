import { describe, expectTypeOf, it } from 'vitest';
import type {
  FlowType,
  LogEvent,
  LoginRequest,
  LoginResponse,
  LogStreamQueryBySource,
  Profile,
  RenameProfileRequest,
  TelemetryCategory,
} from './index.js';

describe('generated types', () => {
  it('name the login flow types', () => {
    expectTypeOf<FlowType>().toEqualTypeOf<'LOGIN' | 'REAUTH'>();
    expectTypeOf<LoginResponse['flow_type']>().toEqualTypeOf<'LOGIN' | 'REAUTH'>();
    // @ts-expect-error a flow_type outside the enum
    const bad: LoginResponse = { id: 'a', flow_type: 'PENDING', hosted_url: 'u', flow_expires_at: 't' };
    void bad;
  });

  it('require a name on rename and reject unknown properties', () => {
    const ok: RenameProfileRequest = { name: 'n' };
    void ok;
    // @ts-expect-error missing name
    const missing: RenameProfileRequest = {};
    // @ts-expect-error unknown property
    const extra: RenameProfileRequest = { name: 'n', colour: 'red' };
    void missing;
    void extra;
  });

  it('type the login request, its nullable telemetry and its closed objects', () => {
    const body: LoginRequest = { proxy: { id: 'p' }, record_session: true, browser_telemetry: null };
    void body;
    expectTypeOf<NonNullable<LoginRequest['browser_telemetry']>['enabled']>().toEqualTypeOf<boolean | undefined>();
    // @ts-expect-error unknown property
    const unknown: LoginRequest = { proxy_id: 'p' };
    // @ts-expect-error a category outside the nine
    const category: LoginRequest = { browser_telemetry: { browser: { cookies: { enabled: true } } } };
    void unknown;
    void category;
  });

  it('list the nine telemetry categories', () => {
    expectTypeOf<TelemetryCategory>().toEqualTypeOf<
      'control' | 'connection' | 'system' | 'captcha' | 'console' | 'page' | 'interaction' | 'network' | 'screenshot'
    >();
  });

  it('tie the log stream parameters to their source', () => {
    const byPath: LogStreamQueryBySource = { source: 'path', path: '/var/log/x', follow: true };
    const bySupervisor: LogStreamQueryBySource = { source: 'supervisor', supervisor_process: 'chromium' };
    void byPath;
    void bySupervisor;
    // @ts-expect-error source path without path
    const missing: LogStreamQueryBySource = { source: 'path' };
    // @ts-expect-error unknown source
    const wrong: LogStreamQueryBySource = { source: 'kernel', path: '/x' };
    void missing;
    void wrong;
  });

  it('type profiles and log events as the document says', () => {
    expectTypeOf<Profile['name']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Profile['id']>().toEqualTypeOf<string>();
    expectTypeOf<LogEvent>().toEqualTypeOf<{ event: string; timestamp: string; message: string }>();
  });
});
