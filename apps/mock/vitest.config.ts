import { defineConfig } from 'vitest/config';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

export default defineConfig({
  test: {
    reporters: vitestReporters(import.meta.dirname),
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Prism takes about 1.2 s to start on an idle machine, several seconds on a loaded one.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
