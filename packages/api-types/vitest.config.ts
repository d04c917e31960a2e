import { defineConfig } from 'vitest/config';
import { vitestReporters } from '@browser-cloud/tooling/test-reports';

export default defineConfig({
  test: { reporters: vitestReporters(import.meta.dirname) },
});
