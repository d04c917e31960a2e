import type { DEFAULT_FIXTURE_REFS } from '@browser-cloud/sandbox';
import { MOCK_ONLY, STATEFUL_ONLY, skipTitle } from '../../scripts/skips.mjs';
import { MOCK_RESOURCES, type Resources, resourcesFrom } from './resources.js';

/**
 * Where the suite runs, from the environment that scripts/run-contract.mjs sets:
 * - `mock`: a Prism mock of the document; `Prefer` picks statuses and examples.
 * - `proxy`: Prism's validating proxy in front of a real server (API_UPSTREAM_URL).
 * - `server`: a real server directly (API_BASE_URL), or the sandbox started as one (`live-sandbox`).
 * - `sandbox`: the stateful sandbox (apps/sandbox) behind Prism's validating proxy.
 */
export type TargetMode = 'mock' | 'proxy' | 'server' | 'sandbox';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; run the suite through \`npm run contract\``);
  return value;
}

const mode = required('CONTRACT_MODE') as TargetMode;

export const target = {
  mode,
  baseUrl: required('CONTRACT_BASE_URL'),
  token: required('CONTRACT_TOKEN'),
  /**
   * The server itself, when the suite otherwise goes through Prism's proxy: Prism refuses
   * invalid requests on its own (422), so raw requests that test the server's refusals go here.
   */
  directUrl: process.env.CONTRACT_DIRECT_URL ?? required('CONTRACT_BASE_URL'),
  /** The resources the cases may use (ids of things that exist on the target). */
  resources: (mode === 'mock'
    ? { ...MOCK_RESOURCES, ...resourcesFrom(process.env) }
    : resourcesFrom(process.env)) as Resources,
  /** Extra facts the sandbox target passes (fixture ids and tokens), as JSON. */
  sandbox: process.env.CONTRACT_SANDBOX
    ? (JSON.parse(process.env.CONTRACT_SANDBOX) as { refs: typeof DEFAULT_FIXTURE_REFS; directUrl: string })
    : undefined,
};

/** Prism's `Prefer` header only means something to the mock. */
export const mockOnly = target.mode !== 'mock';
export const MOCK_ONLY_REASON = `${MOCK_ONLY} (target: ${target.mode})`;
/** The title of a `Prefer` case: off the mock it names why it is skipped. */
export const mockOnlyTitle = (title: string) => (mockOnly ? skipTitle(title, MOCK_ONLY_REASON) : title);
/** The title of a case that needs a stateful server: on the mock it names why it is skipped. */
export const statefulOnlyTitle = (title: string) => (target.mode === 'mock' ? skipTitle(title, STATEFUL_ONLY) : title);
