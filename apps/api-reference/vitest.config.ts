import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // One Chromium launch plus one page load takes a few seconds; a hang should fail fast.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
