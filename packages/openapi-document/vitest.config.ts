import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Compiling Ajv over the whole document is CPU-bound: seconds on a loaded machine.
    testTimeout: 60_000,
  },
});
