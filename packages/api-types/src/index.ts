/**
 * Types generated from the Browser Cloud OpenAPI document (openapi/openapi.yaml).
 * The generated code lives in `./generated`; this file only names what users type against.
 */
// Every type the document names (`paths`, `operations`, `components` and one per component:
// `Profile`, `LoginRequest`…), and the query objects' rules as unions (`LogStreamQueryBySource`).
export type * from './generated/openapi.js';
export type * from './generated/query-unions.js';
export type { Error as ErrorBody } from './generated/openapi.js';
export type { Validator, ErrorObject } from './validator.js';
export { toIssues, type IssueNaming, type ValidationIssue } from './validation-issues.js';
export { DEFAULT_TELEMETRY_CATEGORIES, TELEMETRY_CATEGORIES } from './telemetry/categories.js';
export {
  InvalidTelemetryConfigError,
  resolveTelemetry,
  type TelemetryContext,
} from './telemetry/resolve-telemetry.js';
export { DOCUMENT_VERSION } from './generated/document-version.js';

import type { BrowserTelemetryCategoriesConfig, LoginResponse } from './generated/openapi.js';

/** A telemetry category name: one of the nine keys of BrowserTelemetryCategoriesConfig. */
export type TelemetryCategory = keyof BrowserTelemetryCategoriesConfig;

/** `flow_type` of a login response. */
export type FlowType = LoginResponse['flow_type'];
