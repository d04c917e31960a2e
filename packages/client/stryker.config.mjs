import { mutationConfig } from '../../stryker.base.mjs';

// Measured 2026-11-24 on main after the openapi-fetch move (704 mutants): 92.90 % (650 killed,
// 4 timed out, 43 survived, 7 without coverage). Equivalent mutants are excluded where they are,
// with a `Stryker disable` comment that says why (3 places).
export default mutationConfig({
  mutate: ['src/**/*.ts', '!src/**/*.test.ts', '!src/**/*.test-d.ts', '!src/test-support/**'],
  minScore: 85,
});
