import { defineConfig } from 'vitest/config';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

// Every `*.test.ts` (src/, test/, scripts/), in node: vitest's defaults.
export default defineConfig({
  test: { reporters: vitestReporters(import.meta.dirname), testTimeout: 20_000, hookTimeout: 20_000 },
});
