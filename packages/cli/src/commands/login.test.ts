import { describe, expect, it } from 'vitest';
import { loginBody } from './login.js';

describe('loginBody', () => {
  it('is undefined without options: the connection’s defaults apply', () => {
    expect(loginBody({})).toBeUndefined();
    expect(loginBody({ json: true })).toBeUndefined();
  });

  it('maps each option to its field, and false record-session is sent', () => {
    expect(loginBody({ proxyId: 'prx_1', recordSession: false, telemetry: { enabled: false } })).toEqual({
      proxy: { id: 'prx_1' },
      record_session: false,
      browser_telemetry: { enabled: false },
    });
    expect(loginBody({ proxyName: 'eu' })).toEqual({ proxy: { name: 'eu' } });
  });

  it('both proxy options make {id, name}, which the client refuses', () => {
    expect(loginBody({ proxyId: 'prx_1', proxyName: 'eu' })).toEqual({ proxy: { id: 'prx_1', name: 'eu' } });
  });
});
