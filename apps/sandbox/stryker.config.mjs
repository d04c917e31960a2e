import { mutationConfig } from '../../stryker.base.mjs';

export default mutationConfig({
  mutate: ['src/domain/**/*.ts', 'src/http/**/*.ts', '!src/**/*.test.ts'],
  minScore: 80,
});
