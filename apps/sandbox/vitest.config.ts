import { defineConfig } from 'vitest/config';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

export default defineConfig({
  test: {
    reporters: vitestReporters(import.meta.dirname),
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Real sockets on 127.0.0.1 carry the stream tests; keep any hang short.
    testTimeout: 10_000,
    hookTimeout: 10_000,
  },
});
