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

/** `node scripts/test-summary.mjs <command>` in `cwd`, its reports in a folder of this test's own. */
function summaryIn(cwd: string, ...command: string[]) {
  return spawnSync(process.execPath, [join(import.meta.dirname, 'test-summary.mjs'), ...command], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, TEST_REPORTS_DIR: reports, NO_COLOR: '1' },
  });
}
const summary = (...command: string[]) => summaryIn(process.cwd(), ...command);
let fixtureRun: ReturnType<typeof summary> | undefined;
/** The summary of the failing fixture run, run once for the tests that read it. */
const failingFixtures = () =>
  (fixtureRun ??= summary(
    process.execPath,
    VITEST,
    'run',
    '--root',
    join(import.meta.dirname, 'fixtures/failing-tests'),
  ));

describe('the summary after a failing `npm test`', () => {
  it('names each failing test: package, file and line, name, first line of its error; keeps the exit code', () => {
    const run = failingFixtures();
    expect(run.status).toBe(1);
    const text = run.stdout.slice(run.stdout.indexOf('✖ '));
    const fixture = 'scripts/fixtures/failing-tests';
    expect(text).toContain('✖ 7 failing tests, from the vitest reports of this run:');
    expect(text).toContain(
      `(root)  ${fixture}/sample.fixture.mjs:9\n  a suite > compares numbers\n  AssertionError: expected 2 to be 3 // Object.is equality\n`,
    );
    expect(text).toContain(`(root)  ${fixture}/sample.fixture.mjs:14\n  throws\n  TypeError: zz_thrown`);
    expect(text).toMatch(
      new RegExp(`  ${fixture}/broken\\.fixture\\.mjs\\n  \\(the file as a whole[^\\n]*\\n  .*zz-not-a-module`),
    );
    expect(text).not.toContain('passes');
  });

  it("gives vitest's own first error line: a timeout's message, a message on a later line, a hook's; never an empty one", () => {
    const run = failingFixtures();
    const text = run.stdout.slice(run.stdout.indexOf('✖ '));
    const fixture = 'scripts/fixtures/failing-tests';
    // Not `Error: STACK_TRACE_ERROR`, the placeholder whose stack vitest's JSON report keeps.
    expect(text).toContain(
      `${fixture}/cases.fixture.mjs:4\n  waits for what never comes\n  Error: Test timed out in 50ms.\n`,
    );
    expect(text).not.toContain('STACK_TRACE_ERROR');
    expect(text).toContain(
      `${fixture}/cases.fixture.mjs:10\n  throws an error without a message\n  Error: (no message)\n`,
    );
    expect(text).toContain(`\n  throws an error whose message starts on a later line\n  Error: zz_later_line\n`);
    expect(text).toMatch(
      new RegExp(
        `${fixture}/hook\\.fixture\\.mjs\\n  \\(the file as a whole[^\\n]*\\n  Error: \\(no message\\) \\(in the suite "a suite whose hook throws an error without a message"\\)\\n`,
      ),
    );
    // Each entry: a blank line, where, the test, its error; no line of those is empty.
    const entries = text.trimEnd().split('\n\n').slice(1);
    expect(entries).toHaveLength(7);
    for (const entry of entries) expect(entry.split('\n').filter((line) => line.trim() === '')).toEqual([]);
  });

  it('lists every failed turbo task, with the last lines of its output when no test of it failed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'turbo-run-'));
    try {
      const run = summaryIn(dir, process.execPath, join(import.meta.dirname, 'fixtures/failing-tasks/turbo.mjs'));
      expect(run.status).toBe(1);
      const text = run.stdout.slice(run.stdout.indexOf('✖ '));
      const [tasks, tests] = text.split('\n\n✖ ');
      expect(tasks!.split('\n').filter((line) => !line.startsWith('      '))).toEqual([
        "✖ 3 failed tasks in turbo's run:",
        '  @zz/contract-tests#test (exit code 1), no failing test in a vitest report; the last lines of its output:',
        '  @zz/silent#lint (exit code 2), no failing test in a vitest report; it printed nothing',
        '  @zz/tested#test (exit code 1): failing tests of packages/zz-tested below',
      ]);
      // The last 12 lines, colours and npm's own lines left out.
      expect(tasks!.split('\n').filter((line) => line.startsWith('      '))).toEqual([
        ...Array.from({ length: 11 }, (_, i) => `      output line ${i + 10}`),
        '      [contract] port 37373 on 127.0.0.1 is taken by another server',
      ]);
      expect(tests).toContain('1 failing test, from the vitest reports of this run:');
      expect(tests).toContain(
        'packages/zz-tested  packages/zz-tested/src/a.test.ts:7\n  adds\n  AssertionError: expected 1 to be 2',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
