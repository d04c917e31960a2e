import { defineConfig } from 'vitest/config';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

export default defineConfig({
  test: {
    reporters: vitestReporters(import.meta.dirname),
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // One Chromium launch plus one page load takes a few seconds on an idle machine; under CI's
    // load (ten turbo tasks on two cores) several times that. A hang still fails within a minute.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
