import { defineConfig } from 'vitest/config';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

export default defineConfig({
  test: {
    reporters: vitestReporters(import.meta.dirname),
    include: ['src/**/*.test.ts'],
    // Real sockets on 127.0.0.1 are used by the connection tests; keep any hang short.
    testTimeout: 10_000,
    hookTimeout: 10_000,
  },
});
