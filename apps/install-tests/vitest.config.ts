import { defineConfig } from 'vitest/config';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

export default defineConfig({
  test: {
    reporters: vitestReporters(import.meta.dirname),
    include: ['src/**/*.test.ts'],
    // Packing, an npm install from the local cache and three compiler runs: slow on a busy machine.
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
