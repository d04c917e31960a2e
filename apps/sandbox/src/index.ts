/** A stateful, in-memory sandbox of the Browser Cloud API on loopback: every operation of the OpenAPI document. */
export { type RunningSandbox, startSandbox, type StartSandboxOptions } from './start-sandbox.js';
export { DEFAULT_FIXTURE, DEFAULT_FIXTURE_REFS } from './fixture/default-fixture.js';
export {
  type BrowserLogSource,
  checkFixture,
  FixtureError,
  type FixtureSummary,
  loadFixtureFile,
} from './fixture/load-fixture.js';
export type { FixtureLogLine, SandboxFixture } from './fixture/fixture-schema.js';
export { flowTypesOf, loadSandboxDocument } from './openapi/sandbox-document.js';
export type { SandboxState } from './state/store.js';
