/**
 * Typed client for the Browser Cloud API: managed-auth login, profile rename and browser log
 * streaming, over fetch and the `@browser-cloud/sse` reader, with typed errors, input checks
 * from the OpenAPI document before the network, retries and timeouts. The openapi-fetch client
 * for the `{ data, error }` style is at `@browser-cloud/client/raw`.
 */
export { createClient } from './create-client.js';
export type { BrowserCloudClient } from './create-client.js';
export { createConnection } from './connection.js';
export type { ClientOptions, Connection } from './connection.js';
export { loginAuthConnection } from './resources/auth-connections.js';
export { renameProfile } from './resources/profiles.js';
export { streamBrowserLogs } from './resources/browser-logs.js';
export type { RequestOptions } from './request.js';
export { callOperation, type OperationCall } from './call-operation.js';
export { MAX_RESPONSE_BODY_BYTES } from './request.js';
export type { FetchLike } from './transport.js';
export type { AuthConnections } from './resources/auth-connections.js';
export type { Profiles } from './resources/profiles.js';
export type { BrowserLogs, BrowserLogsStreamOptions, LogStream } from './resources/browser-logs.js';
export type { StreamStateChange } from '@browser-cloud/sse';
export { BASE_URL_ENV, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, TOKEN_ENV } from './config.js';

export {
  BrowserCloudError,
  ValidationError,
  InvalidResponseError,
  APIError,
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
export type { ValidationIssue, APIErrorInit } from './errors.js';

export { resolveTelemetry } from './telemetry/resolve-telemetry.js';
export type { TelemetryContext } from './telemetry/resolve-telemetry.js';
export { DEFAULT_TELEMETRY_CATEGORIES, TELEMETRY_CATEGORIES } from '@browser-cloud/api-types';

// The generated types users type against, re-exported so one import suffices.
export type {
  BrowserTelemetryRequestConfig,
  ErrorBody,
  ErrorDetail,
  FlowType,
  LogEvent,
  LoginRequest,
  LoginResponse,
  LogStreamQueryBySource,
  Profile,
  ProxyRef,
  RenameProfileRequest,
  TelemetryCategory,
} from '@browser-cloud/api-types';
