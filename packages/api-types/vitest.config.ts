import { defineConfig } from 'vitest/config';
import { vitestReporters } from '../../scripts/lib/test-reports.mjs';

export default defineConfig({
  test: { reporters: vitestReporters(import.meta.dirname) },
});
