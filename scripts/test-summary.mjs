#!/usr/bin/env node
// `npm test` runs turbo through this script: `node scripts/test-summary.mjs turbo run … --summarize`.
// The command gets TEST_REPORTS_DIR (`.test-reports/`, emptied first), where every vitest config of
// the repo writes a JSON report (@browser-cloud/tooling/test-reports). When the command fails, this
// prints after its output each failed task of turbo's run summary (`.turbo/runs/`), with the last
// lines of its output when no test of it failed, then each failing test of the run (package, file
// and line, test name, the first line of its error) from those reports and the contract suite's.
// The exit code is the command's.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedTasks, failingTests, formatFailures } from '@browser-cloud/tooling/test-reports';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = resolve(process.env.TEST_REPORTS_DIR ?? join(root, '.test-reports'));
rmSync(reports, { recursive: true, force: true });
const started = Date.now();
const [command, ...args] = process.argv.slice(2);
const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, TEST_REPORTS_DIR: reports } });
if (run.error) console.error(`✖ ${command}: ${run.error.message}`);
const code = run.status ?? 1;
if (code !== 0) {
  const failures = failingTests([reports, join(root, 'apps/contract-tests/reports')], started);
  console.log(`\n${formatFailures(failures, failedTasks(process.cwd(), started))}`);
}
process.exitCode = code;
