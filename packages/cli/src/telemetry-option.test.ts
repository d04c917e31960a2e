import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseTelemetry } from './telemetry-option.js';

describe('parseTelemetry', () => {
  it.each([
    ['on', { enabled: true }],
    ['off', { enabled: false }],
    ['console', { browser: { console: { enabled: true } } }],
    [' console , -captcha ', { browser: { console: { enabled: true }, captcha: { enabled: false } } }],
    ['on,network', { enabled: true, browser: { network: { enabled: true } } }],
    // Without `enabled`: the category at its default.
    ['console:default', { browser: { console: {} } }],
    ['control:default,network', { browser: { control: {}, network: { enabled: true } } }],
    // Contradictions and unknown names are the document's rules: the client refuses them.
    ['off,console', { enabled: false, browser: { console: { enabled: true } } }],
    ['bogus', { browser: { bogus: { enabled: true } } }],
  ])('%s', (spec, expected) => {
    expect(parseTelemetry(spec)).toEqual(expected);
  });

  it.each([':default', '-console:default'])('refuses %j, which names no category to leave at its default', (spec) => {
    expect(() => parseTelemetry(spec)).toThrow(InvalidArgumentError);
    expect(() => parseTelemetry(spec)).toThrow(`"${spec}": name one category, as in "console:default".`);
  });

  it.each(['', 'console,,network', 'console,-', ','])('refuses an empty item in %j', (spec) => {
    expect(() => parseTelemetry(spec)).toThrow(InvalidArgumentError);
    expect(() => parseTelemetry(spec)).toThrow(`empty item in "${spec}".`);
  });
});

describe('parseTelemetry, on names that Object.prototype has', () => {
  it.each(['__proto__', 'constructor', 'off,__proto__', '-toString'])(
    '%s is an own category name, left for the client to refuse',
    (spec) => {
      const browser = parseTelemetry(spec).browser as Record<string, unknown>;
      const name = spec.split(',').at(-1)!.replace(/^-/, '');
      expect(Object.keys(browser)).toEqual([name]);
      expect(Object.getPrototypeOf(browser)).toBe(Object.prototype);
      expect(JSON.stringify(browser)).toBe(`{"${name}":{"enabled":${!spec.endsWith(`-${name}`)}}}`);
    },
  );
});
