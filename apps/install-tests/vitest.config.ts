import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Packing, an npm install from the local cache and three compiler runs: slow on a busy machine.
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});
