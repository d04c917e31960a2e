import { loadOpenApiDocument, telemetryCategories } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import type { BrowserTelemetryRequestConfig } from '../generated/openapi.js';
import type { TelemetryCategory } from '../index.js';
import { DEFAULT_TELEMETRY_CATEGORIES, TELEMETRY_CATEGORIES } from './categories.js';
import { InvalidTelemetryConfigError, resolveTelemetry } from './resolve-telemetry.js';

/** The categories as the document lists them, and those its descriptions say are on by default. */
const categoriesSchema = loadOpenApiDocument().components!.schemas!['BrowserTelemetryCategoriesConfig'] as {
  properties: Record<string, { description: string }>;
};
const CATEGORIES = Object.entries(categoriesSchema.properties);
const DEFAULT = CATEGORIES.filter(([, { description }]) => /^On by default\b/.test(description)).map(([name]) => name);
const create = { mode: 'create' } as const;
const update = (current: TelemetryCategory[] | null) => ({ mode: 'update', current }) as const;

describe('category lists', () => {
  it("lists the document's categories in its order, and the defaults its x-default-enabled and its descriptions state", () => {
    expect(TELEMETRY_CATEGORIES).toEqual(CATEGORIES.map(([name]) => name));
    expect(DEFAULT.length).toBeGreaterThan(0);
    expect(DEFAULT_TELEMETRY_CATEGORIES).toEqual(DEFAULT);
    const flagged = telemetryCategories(loadOpenApiDocument()).filter((category) => category.defaultEnabled);
    expect(flagged.map((category) => category.name)).toEqual(DEFAULT);
    expect(Object.isFrozen(TELEMETRY_CATEGORIES)).toBe(true);
  });
});

describe('resolveTelemetry on create', () => {
  it('rule 1: enabled=true without browser captures the default set', () => {
    expect(resolveTelemetry({ enabled: true }, create)).toEqual(DEFAULT);
  });
  it('rule 1: browser settings layer onto the default set', () => {
    expect(
      resolveTelemetry(
        {
          enabled: true,
          browser: { console: { enabled: true }, network: { enabled: true }, captcha: { enabled: false } },
        },
        create,
      ),
    ).toEqual(['control', 'connection', 'system', 'console', 'network']);
  });
  it('rule 3: enabled=false starts no capture', () => {
    expect(resolveTelemetry({ enabled: false }, create)).toEqual([]);
  });
  it('rule 4: with enabled omitted, provided categories layer onto the default set', () => {
    expect(
      resolveTelemetry({ browser: { screenshot: { enabled: true }, control: { enabled: false } } }, create),
    ).toEqual(['connection', 'system', 'captcha', 'screenshot']);
  });
  it('rule 5: browser omitted or empty uses the default set', () => {
    expect(resolveTelemetry({}, create)).toEqual(DEFAULT);
    expect(resolveTelemetry({ browser: {} }, create)).toEqual(DEFAULT);
    expect(resolveTelemetry({ enabled: true, browser: {} }, create)).toEqual(DEFAULT);
  });
  it('rule 6: a browser configuration that disables every category starts no capture', () => {
    const allOff = Object.fromEntries(TELEMETRY_CATEGORIES.map((c) => [c, { enabled: false }]));
    expect(resolveTelemetry({ browser: allOff }, create)).toEqual([]);
    expect(resolveTelemetry({ enabled: true, browser: allOff }, create)).toEqual([]);
  });
  it('a category without enabled is at its default: on for an operational one, off for a CDP one', () => {
    expect(resolveTelemetry({ browser: { console: {} } }, create)).toEqual(DEFAULT);
    expect(resolveTelemetry({ browser: { control: {}, console: {}, network: { enabled: true } } }, create)).toEqual([
      ...DEFAULT,
      'network',
    ]);
    expect(resolveTelemetry({ enabled: true, browser: { screenshot: {} } }, create)).toEqual(DEFAULT);
  });
  it('disabling an off-by-default category changes nothing', () => {
    expect(resolveTelemetry({ browser: { console: { enabled: false } } }, create)).toEqual(DEFAULT);
  });
  it('choice: null or undefined config on create captures nothing', () => {
    expect(resolveTelemetry(null, create)).toEqual([]);
    expect(resolveTelemetry(undefined, create)).toEqual([]);
  });
});

describe('resolveTelemetry on update', () => {
  const current: TelemetryCategory[] = ['console', 'control'];

  it('rule 2: enabled=true resolves fresh from the default set, replacing the current selection', () => {
    expect(resolveTelemetry({ enabled: true }, update(current))).toEqual(DEFAULT);
    expect(resolveTelemetry({ enabled: true, browser: { page: { enabled: true } } }, update(current))).toEqual([
      ...DEFAULT,
      'page',
    ]);
  });
  it('rule 2/4: enabled omitted merges the provided categories onto the current selection', () => {
    expect(
      resolveTelemetry({ browser: { network: { enabled: true }, control: { enabled: false } } }, update(current)),
    ).toEqual(['console', 'network']);
  });
  it('rule 3: enabled=false stops capture', () => {
    expect(resolveTelemetry({ enabled: false }, update(current))).toEqual([]);
    expect(resolveTelemetry({ enabled: false }, update(null))).toEqual([]);
  });
  it('rule 4: with no active telemetry, the update falls back to the default set', () => {
    expect(resolveTelemetry({ browser: { console: { enabled: true } } }, update(null))).toEqual([
      ...DEFAULT,
      'console',
    ]);
    expect(resolveTelemetry({}, update(null))).toEqual(DEFAULT);
  });
  it('choice: an empty current selection is no active telemetry, like null', () => {
    expect(resolveTelemetry({ browser: { console: { enabled: true } } }, update([]))).toEqual([...DEFAULT, 'console']);
    expect(resolveTelemetry({}, update([]))).toEqual(DEFAULT);
    expect(resolveTelemetry(null, update([]))).toEqual([]);
  });
  it('rule 6: disabling every category stops capture', () => {
    const allOff = Object.fromEntries(TELEMETRY_CATEGORIES.map((c) => [c, { enabled: false }]));
    expect(resolveTelemetry({ browser: allOff }, update(current))).toEqual([]);
    expect(resolveTelemetry({ browser: allOff }, update(null))).toEqual([]);
  });
  it('an update whose provided categories disable the whole current selection stops capture', () => {
    expect(
      resolveTelemetry({ browser: { console: { enabled: false }, control: { enabled: false } } }, update(current)),
    ).toEqual([]);
  });
  it('a category without enabled is unchanged: kept when selected, left out when not', () => {
    expect(resolveTelemetry({ browser: { console: {}, page: {} } }, update(current))).toEqual(['control', 'console']);
    expect(resolveTelemetry({ browser: { control: {}, network: { enabled: true } } }, update(current))).toEqual([
      'control',
      'console',
      'network',
    ]);
  });
  it('a category without enabled is at its default where the update starts from the default set', () => {
    // enabled=true resolves fresh from the default set (rule 2); no active telemetry falls back to it (rule 4).
    expect(resolveTelemetry({ enabled: true, browser: { console: {}, control: {} } }, update(current))).toEqual(
      DEFAULT,
    );
    expect(resolveTelemetry({ browser: { console: {} } }, update(null))).toEqual(DEFAULT);
  });
  it('choice: {} or an empty browser keeps the current selection', () => {
    expect(resolveTelemetry({}, update(current))).toEqual(['control', 'console']);
    expect(resolveTelemetry({ browser: {} }, update(current))).toEqual(['control', 'console']);
  });
  it('choice: null or undefined config changes nothing', () => {
    expect(resolveTelemetry(null, update(current))).toEqual(['control', 'console']);
    expect(resolveTelemetry(undefined, update(null))).toEqual([]);
  });
  it('returns a sorted copy, never the caller array', () => {
    const mine: TelemetryCategory[] = ['screenshot', 'control'];
    const out = resolveTelemetry(null, update(mine));
    expect(out).toEqual(['control', 'screenshot']);
    expect(out).not.toBe(mine);
  });
});

describe('resolveTelemetry validation', () => {
  function thrown(config: unknown): InvalidTelemetryConfigError {
    try {
      resolveTelemetry(config as BrowserTelemetryRequestConfig, create);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidTelemetryConfigError);
      return error as InvalidTelemetryConfigError;
    }
    throw new Error('expected an InvalidTelemetryConfigError');
  }

  it('rejects enabled=false combined with browser categories, on create and update', () => {
    const error = thrown({ enabled: false, browser: { console: { enabled: true } } });
    expect(error.field).toBe('browser_telemetry');
    expect(error.rule).toBe('not');
    expect(error.message).toContain('enabled=false');
    expect(() => resolveTelemetry({ enabled: false, browser: {} }, update(['control']))).toThrow(
      InvalidTelemetryConfigError,
    );
  });
  it('rejects a category outside the nine', () => {
    const error = thrown({ browser: { cookies: { enabled: true } } });
    expect(error).toMatchObject({ field: 'browser_telemetry.browser.cookies', rule: 'additionalProperties' });
  });
  it('rejects an unknown property, in the config and in a category flag, and a flag that is not boolean', () => {
    expect(thrown({ enabled: true, extra: 1 })).toMatchObject({ field: 'browser_telemetry.extra' });
    expect(thrown({ browser: { console: { on: true } } })).toMatchObject({
      field: 'browser_telemetry.browser.console.on',
      rule: 'additionalProperties',
    });
    expect(thrown({ browser: { console: { enabled: 'yes' } } })).toMatchObject({
      field: 'browser_telemetry.browser.console.enabled',
      rule: 'type',
    });
  });
  it('rejects a config that is not an object', () => {
    expect(thrown('on')).toMatchObject({
      name: 'InvalidTelemetryConfigError',
      field: 'browser_telemetry',
      rule: 'type',
      message: 'browser_telemetry: must be object',
    });
    expect(thrown(['x']).message).toMatch(/^browser_telemetry: /);
  });
});
