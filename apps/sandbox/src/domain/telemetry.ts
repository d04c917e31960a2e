import {
  type BrowserTelemetryRequestConfig,
  InvalidTelemetryConfigError,
  resolveTelemetry,
  type TelemetryCategory,
} from '@browser-cloud/api-types';
import { badRequest } from '../http/api-error.js';

/**
 * The categories a login's browser session will capture. A login starts a new session, so the
 * configuration resolves as on create: a category given without `enabled` is at its default. The rules are `@browser-cloud/api-types`'
 * `resolveTelemetry`: one implementation beside the types, for the SDK and the sandbox.
 */
export function loginTelemetryCategories(config: BrowserTelemetryRequestConfig | null): TelemetryCategory[] {
  try {
    return resolveTelemetry(config, { mode: 'create' });
  } catch (error) {
    // The document's schema already refuses what resolveTelemetry refuses; a connection default
    // from a hand-written fixture is the one way to get here.
    if (error instanceof InvalidTelemetryConfigError) {
      throw badRequest('the browser telemetry configuration is invalid', [['browser_telemetry', error.message]]);
    }
    throw error;
  }
}
