import { defineConfig } from 'vitest/config';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

export default defineConfig({
  test: {
    reporters: vitestReporters(import.meta.dirname),
    // Compiling Ajv over the whole document is CPU-bound: seconds on a loaded machine.
    testTimeout: 60_000,
  },
});
