import type { BrowserTelemetryRequestConfig } from '@browser-cloud/client';
import { InvalidArgumentError } from 'commander';

/** How `parseTelemetry` reads a value, for the help of an option that takes it. */
export const TELEMETRY_SYNTAX =
  'A list of on, off and categories, "-" turning one off, ":default" leaving one at its default (on,console,-captcha,page:default), or JSON';

/** The suffix that sends a category without `enabled`: at its default (a login starts a session). */
const AT_DEFAULT = ':default';

/**
 * Parses a BrowserTelemetryRequestConfig (`--browser-telemetry`): a comma-separated list of `on`,
 * `off` and category names, a category prefixed with `-` turned off, one suffixed with `:default` sent without `enabled` (at its
 * default on create, unchanged on update). `on` → `{enabled: true}`, `off` → `{enabled: false}`,
 * `console,-captcha` → `{browser: {console: {enabled: true}, captcha: {enabled: false}}}`,
 * `console:default` → `{browser: {console: {}}}`.
 * Which combinations and category names are valid is the document's business: the client
 * checks the result (`off,console` and `bogus` are refused there, with its own message).
 */
export function parseTelemetry(spec: string): BrowserTelemetryRequestConfig {
  const config: Record<string, unknown> = {};
  // A Map, so that `__proto__` or `constructor` is a name like any other, which the client
  // refuses as no category of the document, rather than a key that reaches the prototype.
  const browser = new Map<string, { enabled?: boolean }>();
  for (const item of spec.split(',').map((part) => part.trim())) {
    if (item === '' || item === '-') throw new InvalidArgumentError(`empty item in "${spec}".`);
    if (item === 'on' || item === 'off') {
      config['enabled'] = item === 'on';
      continue;
    }
    if (item.endsWith(AT_DEFAULT)) {
      const name = item.slice(0, -AT_DEFAULT.length);
      if (name === '' || name.startsWith('-'))
        throw new InvalidArgumentError(`"${item}": name one category, as in "console:default".`);
      browser.set(name, {});
      continue;
    }
    const off = item.startsWith('-');
    browser.set(off ? item.slice(1) : item, { enabled: !off });
  }
  if (browser.size > 0) config['browser'] = Object.fromEntries(browser);
  return config as BrowserTelemetryRequestConfig;
}
