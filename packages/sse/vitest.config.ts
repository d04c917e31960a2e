import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Real sockets on 127.0.0.1 are used by the connection tests; keep any hang short.
    testTimeout: 10_000,
    hookTimeout: 10_000,
  },
});
