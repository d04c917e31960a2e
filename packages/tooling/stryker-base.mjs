/**
 * Shared StrykerJS settings of the packages' `stryker.config.mjs` (`npm run mutation`; not part
 * of CI: it takes minutes). One mutant at a time by default, as the machines running it are
 * shared; STRYKER_CONCURRENCY raises it. `minScore` is the package's floor: a run below it
 * fails. The score is raw: mutants that cannot change behaviour (equivalent ones) count as
 * survivors, and each package's config lists them (`equivalentMutants`) rather than the source
 * carrying comments for the tool; `node scripts/mutation-survivors.mjs <package dir>` prints the
 * survivors of the last run that the list does not explain.
 */
export function mutationConfig({ mutate, minScore }) {
  return {
    testRunner: 'vitest',
    plugins: ['@stryker-mutator/vitest-runner'],
    vitest: { configFile: 'vitest.config.ts' },
    coverageAnalysis: 'perTest',
    mutate,
    concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
    timeoutMS: 10_000,
    thresholds: { high: 90, low: minScore, break: minScore },
    reporters: ['clear-text', 'progress', 'html', 'json'],
    htmlReporter: { fileName: 'reports/mutation/index.html' },
    jsonReporter: { fileName: 'reports/mutation/mutation.json' },
    tempDirName: '.stryker-tmp',
    cleanTempDir: 'always',
  };
}
