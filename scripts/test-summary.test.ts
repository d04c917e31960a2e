// `npm test`'s failure summary, on a deliberately failing vitest run (fixtures/failing-tests).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const reports = mkdtempSync(join(tmpdir(), 'test-reports-'));
afterAll(() => rmSync(reports, { recursive: true, force: true }));

/** `node scripts/test-summary.mjs <command>`, its reports in a folder of this test's own. */
function summary(...command: string[]) {
  return spawnSync(process.execPath, [join(import.meta.dirname, 'test-summary.mjs'), ...command], {
    encoding: 'utf8',
    env: { ...process.env, TEST_REPORTS_DIR: reports, NO_COLOR: '1' },
  });
}

describe('the summary after a failing `npm test`', () => {
  it('names each failing test: package, file and line, name, first line of its error; keeps the exit code', () => {
    const run = summary(process.execPath, VITEST, 'run', '--root', join(import.meta.dirname, 'fixtures/failing-tests'));
    expect(run.status).toBe(1);
    const text = run.stdout.slice(run.stdout.indexOf('✖ '));
    const fixture = 'scripts/fixtures/failing-tests';
    expect(text).toContain('✖ 3 failing tests, from the vitest reports of this run:');
    expect(text).toContain(
      `(root)  ${fixture}/sample.fixture.mjs:9\n  a suite > compares numbers\n  AssertionError: expected 2 to be 3 // Object.is equality\n`,
    );
    expect(text).toContain(`(root)  ${fixture}/sample.fixture.mjs:14\n  throws\n  TypeError: zz_thrown`);
    expect(text).toMatch(
      new RegExp(`  ${fixture}/broken\\.fixture\\.mjs\\n  \\(the file as a whole[^\\n]*\\n  .*zz-not-a-module`),
    );
    expect(text).not.toContain('passes');
  });

  it('says so when the failure is not a test (no report has one), and prints nothing when all passed', () => {
    const failed = summary(process.execPath, '-e', 'process.exit(3)');
    expect(failed.status).toBe(3);
    expect(failed.stdout).toContain('No vitest report of this run has a failing test');
    const passed = summary(process.execPath, '-e', '');
    expect(passed.status).toBe(0);
    expect(passed.stdout).toBe('');
  });
});
