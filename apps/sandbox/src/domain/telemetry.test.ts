import { InvalidTelemetryConfigError, resolveTelemetry } from '@browser-cloud/api-types';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../http/api-error.js';
import { loginTelemetryCategories } from './telemetry.js';

// The real resolver, wrapped so that one test can make it fail in an unexpected way.
vi.mock('@browser-cloud/api-types', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@browser-cloud/api-types')>();
  return { ...actual, resolveTelemetry: vi.fn(actual.resolveTelemetry) };
});

describe('loginTelemetryCategories', () => {
  it('resolves a configuration as on create', () => {
    expect(loginTelemetryCategories(null)).toEqual([]);
    expect(loginTelemetryCategories({ enabled: false })).toEqual([]);
    expect(loginTelemetryCategories({ enabled: true, browser: { console: { enabled: true } } })).toContain('console');
  });

  it('leaves a category given without enabled at its default: an operational one on, a CDP one off', () => {
    const defaults = resolveTelemetry({ enabled: true }, { mode: 'create' });
    expect(loginTelemetryCategories({ browser: { console: {}, control: {} } })).toEqual(defaults);
    expect(defaults).toContain('control');
    expect(defaults).not.toContain('console');
  });

  it('answers an invalid configuration with 400 naming browser_telemetry', () => {
    const config = { enabled: 'yes' } as never;
    let cause: unknown;
    try {
      loginTelemetryCategories(config);
    } catch (error) {
      cause = error;
    }
    expect(cause).toBeInstanceOf(ApiError);
    const body = (cause as ApiError).toBody();
    expect(body).toMatchObject({ code: 'bad_request', message: 'the browser telemetry configuration is invalid' });
    // The detail carries the resolver's own words.
    let resolverMessage = '';
    try {
      resolveTelemetry(config, { mode: 'create' });
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidTelemetryConfigError);
      resolverMessage = (error as Error).message;
    }
    expect(resolverMessage).not.toBe('');
    expect(body.details).toEqual([{ code: 'invalid_input', message: `browser_telemetry: ${resolverMessage}` }]);
  });

  it('lets an unexpected failure of the resolver through as it is', () => {
    const failure = new TypeError('boom');
    vi.mocked(resolveTelemetry).mockImplementationOnce(() => {
      throw failure;
    });
    expect(() => loginTelemetryCategories(null)).toThrow(failure);
  });
});
