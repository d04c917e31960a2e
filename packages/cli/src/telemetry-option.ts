import type { BrowserTelemetryRequestConfig } from '@browser-cloud/client';
import { InvalidArgumentError } from 'commander';

/** How `parseTelemetry` reads a value, for the help of an option that takes it. */
export const TELEMETRY_SYNTAX =
  'A list of on, off and categories, "-" turning one off, ":default" leaving one at its default (on,console,-captcha,page:default), or JSON';

/**
 * Parses a BrowserTelemetryRequestConfig (`--browser-telemetry`) written as {@link TELEMETRY_SYNTAX}:
 * `on,console,-captcha` → `{enabled: true, browser: {console: {enabled: true}, captcha: {enabled: false}}}`,
 * `console:default` → `{browser: {console: {}}}` (without `enabled`: at its default on create,
 * unchanged on update). Which combinations and names are valid is the document's business: the
 * client checks the result (`off,console` and `bogus` are refused there, with its own message).
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
    } else if (item.endsWith(':default')) {
      const name = item.slice(0, -':default'.length);
      if (name === '' || name.startsWith('-')) {
        throw new InvalidArgumentError(`"${item}": name one category, as in "console:default".`);
      }
      browser.set(name, {});
    } else {
      browser.set(item.replace(/^-/, ''), { enabled: !item.startsWith('-') });
    }
  }
  if (browser.size > 0) config['browser'] = Object.fromEntries(browser);
  return config as BrowserTelemetryRequestConfig;
}
