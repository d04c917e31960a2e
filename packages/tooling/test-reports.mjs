// The vitest JSON reports of the test tasks of `npm test`, and the failing tests in them, which
// `npm test` prints after turbo's output (scripts/test-summary.mjs).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The reporters of the vitest config in `dir`: vitest's default, and, when TEST_REPORTS_DIR is
 * set (`npm test` sets it), a JSON report there named for `dir` and the npm script that runs it.
 */
export function vitestReporters(dir) {
  const reports = process.env.TEST_REPORTS_DIR;
  if (!reports) return ['default'];
  const task = process.env.npm_lifecycle_event ?? 'vitest';
  const name = `${relative(ROOT, dir).replaceAll('/', '-') || 'root'}-${task}`.replace(/[^\w.-]/g, '-');
  return ['default', ['json', { outputFile: join(reports, `${name}.json`) }]];
}

/** The vitest JSON reports in `dirs` (and their subfolders) written at `since` or after. */
function reportsIn(dirs, since) {
  const files = dirs.flatMap((dir) =>
    (existsSync(dir) ? readdirSync(dir, { recursive: true }) : []).map((name) => join(dir, String(name))),
  );
  return files
    .filter((path) => path.endsWith('.json') && statSync(path).mtimeMs >= since)
    .map((path) => {
      try {
        return JSON.parse(readFileSync(path, 'utf8'));
      } catch {
        return undefined;
      }
    })
    .filter((report) => Array.isArray(report?.testResults));
}

const firstLine = (text) => /\S.*/.exec(String(text ?? ''))?.[0].trim() ?? '';

/**
 * Every failing test in the vitest JSON reports of `dirs` written since `since` (ms): its package,
 * file and line, name, and the first line of its error. A file that failed as a whole (it did not
 * load, or a hook failed) is one entry without a name.
 */
export function failingTests(dirs, since = 0) {
  return reportsIn(dirs, since).flatMap(({ testResults }) =>
    testResults.flatMap(({ name: file, status, message, assertionResults = [] }) => {
      const path = relative(ROOT, file);
      // The workspace folder (packages/sse), or the repo's own tests (openapi, scripts).
      const where = { package: /^(?:packages|apps)\/[^/]+/.exec(path)?.[0] ?? '(root)', file: path };
      const failed = assertionResults.filter((test) => test.status === 'failed');
      if (failed.length === 0)
        return status === 'failed' ? [{ ...where, line: null, name: null, error: firstLine(message) }] : [];
      return failed.map((test) => {
        const error = test.failureMessages?.[0] ?? '';
        const line = error.split(`${file}:`)[1]?.match(/^\d+/)?.[0];
        return {
          ...where,
          line: line ? Number(line) : null,
          name: [...test.ancestorTitles, test.title].join(' > '),
          error: firstLine(error),
        };
      });
    }),
  );
}

/** The summary `npm test` prints after a failed run. */
export function formatFailures(failures) {
  if (failures.length === 0) {
    return '✖ No vitest report of this run has a failing test: the tasks turbo lists as failed above failed outside vitest (lint, types, a build); their output is above.';
  }
  const lines = [
    `✖ ${failures.length} failing ${failures.length === 1 ? 'test' : 'tests'}, from the vitest reports of this run:`,
  ];
  for (const { package: where, file, line, name, error } of failures) {
    const test = name ?? '(the file as a whole: it failed to load, or a hook failed)';
    lines.push('', `${where}  ${file}${line ? `:${line}` : ''}`, `  ${test}`, `  ${error}`);
  }
  return lines.join('\n');
}
