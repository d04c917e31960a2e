import { defineConfig } from 'vitest/config';
import { vitestReporters } from '../../scripts/lib/test-reports.mjs';

// The engine's own tests: the case generator, the judge, the runner's helpers, and the engine
// against deliberately broken servers. They start what they need; no target is set.
export default defineConfig({
  test: {
    reporters: vitestReporters(import.meta.dirname),
    include: ['src/engine/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
