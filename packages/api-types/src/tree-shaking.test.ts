import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** Minified bundle of an app that imports only `names` from the validators module. */
async function bundle(...names: string[]): Promise<string> {
  const result = await build({
    stdin: {
      contents: `export { ${names.join(', ')} } from './generated/validators/index.js';`,
      resolveDir: dirname(fileURLToPath(import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A property name that only the given schema's validator mentions. */
const marks = {
  LoginRequest: 'record_session',
  BrowserTelemetryRequestConfig: 'screenshot',
  LogStreamQuery: 'supervisor_process',
  LoginResponse: 'flow_expires_at',
  Profile: 'last_used_at',
  LogEvent: 'timestamp',
  Error: 'inner_error',
  RenameProfilePath: 'id_or_name',
};

describe('the validators module in a bundle', () => {
  it('keeps only the validators an app imports', async () => {
    const code = await bundle('validateRenameProfileRequest');
    for (const mark of Object.values(marks)) expect(code).not.toContain(mark);
    expect(code).toContain('maxLength');
  });

  it('keeps what an imported validator references, and nothing else', async () => {
    const code = await bundle('validateLoginRequest');
    expect(code).toContain(marks.LoginRequest);
    expect(code).toContain(marks.BrowserTelemetryRequestConfig);
    for (const name of [
      'LogStreamQuery',
      'LoginResponse',
      'Profile',
      'LogEvent',
      'Error',
      'RenameProfilePath',
    ] as const) {
      expect(code).not.toContain(marks[name]);
    }
  });

  it('compiles a referenced schema once: importing it too adds only an export', async () => {
    const login = await bundle('validateLoginRequest');
    const withParts = await bundle('validateLoginRequest', 'validateProxyRef', 'validateBrowserTelemetryRequestConfig');
    expect(withParts.length - login.length).toBeLessThan(100);
  });

  it('asserts no format, so it carries no format code', async () => {
    const code = await bundle('validateLogEvent', 'validateLoginResponse', 'validateProfile');
    // The schema objects Ajv keeps for error params still say `format`; no code checks it.
    expect(code).not.toMatch(/fullFormats|keyword:"format"/);
  });
});
