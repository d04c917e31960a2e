import { mutationConfig } from '../../stryker.base.mjs';

export default mutationConfig({
  mutate: ['src/**/*.ts', '!src/**/*.test.ts', '!src/**/*.test-d.ts', '!src/test-support/**'],
  minScore: 85,
});
