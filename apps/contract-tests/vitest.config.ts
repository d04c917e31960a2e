import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.contract.test.ts', 'src/**/*.test.ts'],
    setupFiles: ['src/harness/setup.ts'],
    testTimeout: 15_000,
    hookTimeout: 30_000,
  },
});
