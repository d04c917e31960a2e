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
export { createClient } from './create-client.js';
export type { BrowserCloudClient, ClientOptions } from './create-client.js';
export type { RequestOptions, FetchLike } from './request.js';
export type { AuthConnections } from './resources/auth-connections.js';
export type { Profiles } from './resources/profiles.js';
export type { BrowserLogs, LogStream, LogStreamOptions } from './resources/browser-logs.js';
export { TOKEN_ENV, BASE_URL_ENV, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_RETRIES } from './config.js';
export type {
  LoginRequest,
  LoginResponse,
  ProxyRef,
  BrowserTelemetryRequestConfig,
  TelemetryCategory,
  Profile,
  RenameProfileRequest,
  LogStreamQueryBySource,
  LogEvent,
  ErrorBody,
  ErrorDetail,
  FlowType,
} from '@browser-cloud/api-types';
