import { defineConfig } from 'vitest/config';
import { HANG_LIMITS } from '@browser-cloud/tooling/test-limits';
import { SHARED_MODULES } from '@browser-cloud/tooling/test-isolation';

// The contract suite, run by scripts/run-contract.mjs against a target. The engine's own tests
// (src/engine, scripts) need no target: vitest.engine.config.ts runs them.
export default defineConfig({
  test: {
    include: ['src/**/*.contract.test.ts'],
    // The cases that drive the sandbox through its /_sandbox control endpoints are cases of the
    // sandbox target only: elsewhere they are not cases at all, rather than skips.
    exclude: process.env.CONTRACT_MODE === 'sandbox' ? [] : ['src/sandbox*.contract.test.ts'],
    setupFiles: ['src/harness/check-every-response.ts'],
    // The files of a worker share its modules: the document is read, and the request checker and
    // the response validator compiled from it, once per worker (src/harness/target.ts), not once
    // per case file, which made the run grow with cases × operations (8 minutes at 103
    // operations). Each file's state is its own (planOperation's plan): nothing else is shared.
    ...SHARED_MODULES,
    ...HANG_LIMITS,
    // A stateful target is shared by every file: run them one after another so that no case
    // sees another's renames or flows half-way.
    fileParallelism: process.env.CONTRACT_MODE === 'mock',
  },
});
