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
 * sandbox), throwing this package's `ValidationError` for an invalid configuration so that one
 * `instanceof BrowserCloudError` still catches everything the client throws.
 */
export function resolveTelemetry(
  config: BrowserTelemetryRequestConfig | null | undefined,
  context: TelemetryContext,
): TelemetryCategory[] {
  try {
    return resolveWithDocumentRules(config, context);
  } catch (error) {
    if (error instanceof InvalidTelemetryConfigError) throw new ValidationError(error.issues);
    throw error;
  }
}
