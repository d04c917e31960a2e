import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { HANG_LIMITS } from '@browser-cloud/tooling/test-limits';
import { SHARED_MODULES } from '@browser-cloud/tooling/test-isolation';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

// `npm run test:openapi`: the tests of the document (openapi/) and of the repo's scripts (scripts/).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['openapi/**/*.test.ts', 'scripts/**/*.test.ts'],
    reporters: vitestReporters(import.meta.dirname),
    ...HANG_LIMITS,
    ...SHARED_MODULES,
  },
});
