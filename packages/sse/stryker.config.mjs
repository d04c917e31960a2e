import { mutationConfig } from '../../stryker.base.mjs';

export default mutationConfig({
  mutate: ['src/**/*.ts', '!src/**/*.test.ts', '!src/test-support/**', '!src/index.ts'],
  minScore: 85,
});
