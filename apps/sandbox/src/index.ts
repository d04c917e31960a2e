/**
 * A stateful, in-memory sandbox of the Browser Cloud API on loopback: login flows, profile
 * renames and live log streams with the service's business rules, validated against the
 * OpenAPI document.
 */
export { startSandbox, type StartSandboxOptions, type RunningSandbox } from './start-sandbox.js';
export { buildSandboxApp, type SandboxAppOptions } from './app.js';
export { DEFAULT_FIXTURE, DEFAULT_FIXTURE_REFS } from './fixture/default-fixture.js';
export { checkFixture, loadFixtureFile, summarizeFixture, FixtureError } from './fixture/load-fixture.js';
export { SANDBOX_PREFIX } from './routes/sandbox-routes.js';
export { flowTypesOf, type FlowTypes } from './openapi/flow-types.js';
export { loadSandboxDocument } from './openapi/sandbox-document.js';
export type { SandboxState, SandboxSettings } from './state/sandbox-state.js';
export type {
  SandboxFixture,
  FixtureSummary,
  FixtureOrganization,
  FixtureProject,
  FixtureToken,
  FixtureAuthConnection,
  FixtureProxy,
  FixtureProfile,
  FixtureBrowser,
  FixtureLogSource,
  FixtureLogLine,
  FixtureScope,
  OperationId,
  TokenRole,
} from './fixture/types.js';
export {
  CANNED,
  type CannedAnswer,
  cannedAnswers,
  gzipBomb,
  type HostileServer,
  maxRssReport,
  startHostileServer,
} from './hostile-server.js';
export {
  type CheckedRequest,
  createRequestChecker,
  illFormedStrings,
  invalidPart,
  isRefusal,
  type Refusal,
  type RequestChecker,
  type RequestParts,
  type RouteMatch,
} from './request-checker.js';
