/**
 * Types generated from the Browser Cloud OpenAPI document (openapi/openapi.yaml).
 * The generated code lives in `./generated`; this file only names what users type against.
 */
export type {
  paths,
  operations,
  components,
  LoginRequest,
  ProxyRef,
  ProxyRefById,
  ProxyRefByName,
  BrowserTelemetryRequestConfig,
  BrowserTelemetryCategoriesConfig,
  BrowserTelemetryCategoryConfig,
  LoginResponse,
  RenameProfileRequest,
  Profile,
  LogStreamQuery,
  LogEvent,
  Error,
  Error as ErrorBody,
  ErrorDetail,
} from './generated/openapi.js';
export type { Validator, ErrorObject } from './validator.js';
export { toIssues, type IssueNaming, type ValidationIssue } from './validation-issues.js';
export { DEFAULT_TELEMETRY_CATEGORIES, TELEMETRY_CATEGORIES } from './telemetry/categories.js';
export {
  InvalidTelemetryConfigError,
  resolveTelemetry,
  type TelemetryContext,
} from './telemetry/resolve-telemetry.js';
export { DOCUMENT_VERSION } from './generated/document-version.js';

import type { BrowserTelemetryCategoriesConfig, LogStreamQuery, operations } from './generated/openapi.js';

/** A telemetry category name: one of the nine keys of BrowserTelemetryCategoriesConfig. */
export type TelemetryCategory = keyof BrowserTelemetryCategoriesConfig;

/** `flow_type` of a login response. */
export type FlowType = operations['loginAuthConnection']['responses'][200]['content']['application/json']['flow_type'];

/**
 * The log stream's query with its conditional rule in the type: `path` comes with
 * `source: 'path'`, `supervisor_process` with `source: 'supervisor'`.
 */
export type LogStreamQueryBySource =
  | (LogStreamQuery & { source: 'path'; path: string })
  | (LogStreamQuery & { source: 'supervisor'; supervisor_process: string });
