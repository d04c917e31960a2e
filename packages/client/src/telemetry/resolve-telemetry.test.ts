import { describe, expect, it } from 'vitest';
import { BrowserCloudError, ValidationError } from '../errors.js';
import { resolveTelemetry } from './resolve-telemetry.js';

// The rules are @browser-cloud/api-types' resolveTelemetry, tested there; this checks the
// client's face of it.
describe("the client's resolveTelemetry", () => {
  it('resolves with the document rules', () => {
    expect(resolveTelemetry({ enabled: true, browser: { console: { enabled: true } } }, { mode: 'create' })).toEqual([
      'control',
      'connection',
      'system',
      'captcha',
      'console',
    ]);
    expect(resolveTelemetry(null, { mode: 'update', current: ['page'] })).toEqual(['page']);
    // A category without `enabled`: at its default on create, unchanged on update.
    expect(resolveTelemetry({ browser: { console: {} } }, { mode: 'create' })).toEqual([
      'control',
      'connection',
      'system',
      'captcha',
    ]);
    expect(resolveTelemetry({ browser: { page: {} } }, { mode: 'update', current: ['page'] })).toEqual(['page']);
  });

  it("throws the client's ValidationError, with the issues, for an invalid configuration", () => {
    let thrown: unknown;
    try {
      resolveTelemetry({ enabled: false, browser: { console: { enabled: true } } }, { mode: 'create' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toBeInstanceOf(BrowserCloudError);
    expect(thrown).toMatchObject({
      field: 'browser_telemetry',
      rule: 'not',
      message: 'browser_telemetry: these properties are not allowed in this combination (enabled=false, browser)',
    });
    expect((thrown as ValidationError).issues).toHaveLength(1);
  });
});
