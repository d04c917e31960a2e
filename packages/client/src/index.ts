/**
 * Typed client for the Browser Cloud API, generated from its OpenAPI document: a method
 * (`client.profiles.rename`) and a function (`renameProfile`) per operation. The openapi-fetch
 * client for the `{ data, error }` style is at `@browser-cloud/client/raw`.
 */
export { createClient, createConnection } from './connection.js';
export type { BrowserCloudClient, ClientOptions, Connection } from './connection.js';
export * from './generated/client.js';
export type { RequestOptions } from './request.js';
export { callOperation, type OperationCall } from './call-operation.js';
export { MAX_RESPONSE_BODY_BYTES } from './request.js';
export { type ParameterStyle, withQuery } from './parameters.js';
export type { FetchLike } from './transport.js';
export type { EventStream, StreamOptions } from './event-stream.js';
export type { StreamStateChange } from '@browser-cloud/sse';
export { BASE_URL_ENV, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, refusedTokenHint, TOKEN_ENV } from './config.js';

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

// The generated types users type against (`Profile`, `LoginRequest`…), so that one import suffices.
export type * from '@browser-cloud/api-types';

// The names of earlier releases.
import type { LogEvent } from '@browser-cloud/api-types';
import type { EventStream, StreamOptions } from './event-stream.js';
import type { BrowsersLogs } from './generated/client.js';
/** The async iterable of log events that `client.browsers.logs.stream` returns. */
export type LogStream = EventStream<LogEvent>;
/** Options of `client.browsers.logs.stream`. */
export type BrowserLogsStreamOptions = StreamOptions;
/** `client.browsers.logs`. */
export type BrowserLogs = BrowsersLogs;
