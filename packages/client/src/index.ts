export {
  BrowserCloudError,
  ValidationError,
  ApiError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
} from './errors.js';
export type { ValidationIssue, ApiErrorInit } from './errors.js';
export { resolveTelemetry } from './telemetry/resolve-telemetry.js';
export type { TelemetryContext } from './telemetry/resolve-telemetry.js';
export { DEFAULT_TELEMETRY_CATEGORIES, TELEMETRY_CATEGORIES } from './telemetry/categories.js';
