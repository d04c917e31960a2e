import { defineConfig } from 'vitest/config';

// The contract suite, run by scripts/run-contract.mjs against a target. The engine's own tests
// (src/engine, scripts) need no target: vitest.engine.config.ts runs them.
export default defineConfig({
  test: {
    include: ['src/**/*.contract.test.ts', 'src/*.test.ts'],
    setupFiles: ['src/harness/setup.ts'],
    testTimeout: 15_000,
    hookTimeout: 30_000,
    // A stateful target is shared by every file: run them one after another so that no case
    // sees another's renames or flows half-way.
    fileParallelism: process.env.CONTRACT_MODE === 'mock',
  },
});
