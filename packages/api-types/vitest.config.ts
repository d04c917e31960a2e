import { defineConfig } from 'vitest/config';
import { HANG_LIMITS } from '@browser-cloud/tooling/test-limits';
import { SHARED_MODULES } from '@browser-cloud/tooling/test-isolation';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

export default defineConfig({
  test: { reporters: vitestReporters(import.meta.dirname), ...HANG_LIMITS, ...SHARED_MODULES },
});
