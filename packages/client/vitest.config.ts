import { defineConfig } from 'vitest/config';
import { vitestReporters } from '../../scripts/lib/test-reports.mjs';

export default defineConfig({
  test: {
    reporters: vitestReporters(import.meta.dirname),
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 10_000,
    typecheck: {
      include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
