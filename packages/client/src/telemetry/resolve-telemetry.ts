import {
  type BrowserTelemetryRequestConfig,
  InvalidTelemetryConfigError,
  resolveTelemetry as resolveWithDocumentRules,
  type TelemetryCategory,
  type TelemetryContext,
} from '@browser-cloud/api-types';
import { ValidationError } from '../errors.js';

export type { TelemetryContext };

/**
 * `@browser-cloud/api-types`' resolveTelemetry (the rules live beside the types, shared with the
 * sandbox), throwing this package's `ValidationError` for an invalid configuration.
 */
export function resolveTelemetry(
  config: BrowserTelemetryRequestConfig | null | undefined,
  context: TelemetryContext,
): TelemetryCategory[] {
  try {
    return resolveWithDocumentRules(config, context);
  } catch (error) {
    throw error instanceof InvalidTelemetryConfigError ? new ValidationError(error.issues) : error;
  }
}
