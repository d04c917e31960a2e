import { mutationConfig } from '@browser-cloud/tooling/stryker-base';

// Measured 2026-11-25 (full run, concurrency 1): 94.44 % of 665 mutants, floor 80; not measured
// again since issue 27 rewrote the routes and the checks. `node scripts/mutation-survivors.mjs
// apps/sandbox` lists the survivors that are not the equivalent ones below.

/**
 * The mutants known to be equivalent (no test can kill them: the behaviour is the same), which
 * therefore count as survivors in the score above. StrykerJS cannot ignore a mutant by line, so
 * this list is the record: a survivor in the report that is not here is a gap to close with a
 * test. Each entry: file:line (where it was when the list was made), mutators, the code, why.
 */
export const equivalentMutants = [
  "src/http/auth.ts:14 StringLiteral in `/^Bearer +([^\\s]+) *$/i.exec(header ?? '')`: equivalent, any text without the scheme matches nothing, as '' does",
  'src/http/auth.ts:23 ConditionalExpression in `const caller = token === undefined ? undefined : state.tokens.get(token);`: the false variant is equivalent (no token is stored under undefined); the true one is killed but shares this switch',
  "src/domain/login.ts:27 ObjectLiteral,StringLiteral in `resolveTelemetry(applied, { mode: 'create' })`: equivalent, the resolver treats any mode but 'update' as create",
];

export default mutationConfig({
  mutate: ['src/domain/**/*.ts', 'src/http/**/*.ts', '!src/**/*.test.ts'],
  minScore: 80,
});
