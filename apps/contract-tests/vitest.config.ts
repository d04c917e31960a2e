import { defineConfig } from 'vitest/config';
import { HANG_LIMITS } from '@browser-cloud/tooling/test-limits';

// The contract suite, run by scripts/run-contract.mjs against a target. The engine's own tests
// (src/engine, scripts) need no target: vitest.engine.config.ts runs them.
export default defineConfig({
  test: {
    include: ['src/**/*.contract.test.ts'],
    // The cases that drive the sandbox through its /_sandbox control endpoints are cases of the
    // sandbox target only: elsewhere they are not cases at all, rather than skips.
    exclude: process.env.CONTRACT_MODE === 'sandbox' ? [] : ['src/sandbox*.contract.test.ts'],
    setupFiles: ['src/harness/observed-fetch.ts'],
    ...HANG_LIMITS,
    // A stateful target is shared by every file: run them one after another so that no case
    // sees another's renames or flows half-way.
    fileParallelism: process.env.CONTRACT_MODE === 'mock',
  },
});
