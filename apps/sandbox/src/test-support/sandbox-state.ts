import { resources } from '@browser-cloud/openapi-document';
import { DEFAULT_FIXTURE } from '../fixture/default-fixture.js';
import type { SandboxFixture } from '../fixture/fixture-schema.js';
import { flowTypesOf, loadSandboxDocument } from '../openapi/sandbox-document.js';
import { SandboxState } from '../state/store.js';

/** The state of a sandbox of the repository's document, with no server: for the domain's unit tests. */
export function sandboxState(now: () => number, options: { flowTtlMs?: number; fixture?: SandboxFixture } = {}) {
  const document = loadSandboxDocument();
  return new SandboxState(options.fixture ?? DEFAULT_FIXTURE, {
    flowTtlMs: options.flowTtlMs ?? 600_000,
    keepAliveMs: 1000,
    retryMs: 1000,
    now,
    publicUrl: () => 'http://sandbox.test',
    flowTypes: flowTypesOf(document),
    document,
    model: resources(document),
  });
}
