// The vitest JSON reports of the test tasks of `npm test`, the failing tests in them, and the
// failed tasks of turbo's run summary, which `npm test` prints after turbo's output
// (scripts/test-summary.mjs).
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** vitest's JSON reporter, with a timeout's own message where vitest writes a placeholder. */
export const JSON_REPORTER = fileURLToPath(new URL('./vitest-json-reporter.mjs', import.meta.url));

/**
 * The reporters of the vitest config in `dir`: vitest's default, and, when TEST_REPORTS_DIR is
 * set (`npm test` sets it), a JSON report there named for `dir` and the npm script that runs it.
 */
export function vitestReporters(dir) {
  const reports = process.env.TEST_REPORTS_DIR;
  if (!reports) return ['default'];
  const task = process.env.npm_lifecycle_event ?? 'vitest';
  const name = `${relative(ROOT, dir).replaceAll('/', '-') || 'root'}-${task}`.replace(/[^\w.-]/g, '-');
  return ['default', [JSON_REPORTER, { outputFile: join(reports, `${name}.json`) }]];
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

/**
 * The first line of an error as vitest recorded it (`Name: message`, then the stack), never empty:
 * a message that starts on a later line is taken from there, and no message at all says so.
 */
export function firstErrorLine(text) {
  const lines = String(text ?? '').split('\n');
  const frame = lines.findIndex((line, i) => i > 0 && /^\s+at /.test(line));
  const head = (frame === -1 ? lines : lines.slice(0, frame)).map((line) => line.trim()).filter(Boolean);
  const [first = '', second] = head;
  // `Error: ` alone: the message starts on a later line (`new Error('\n\nwhy')`), or is empty.
  if (/^[\w$.]+:$/.test(first)) return `${first} ${second ?? '(no message)'}`;
  return first || '(vitest recorded no error message)';
}

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
        return status === 'failed' ? [{ ...where, line: null, name: null, error: firstErrorLine(message) }] : [];
      return failed.map((test) => {
        const error = test.failureMessages?.[0] ?? '';
        const line = error.split(`${file}:`)[1]?.match(/^\d+/)?.[0];
        return {
          ...where,
          line: line ? Number(line) : null,
          name: [...test.ancestorTitles, test.title].join(' > '),
          error: firstErrorLine(error),
        };
      });
    }),
  );
}

/** The last `bytes` of a file (a task's log may be long), or '' when it cannot be read. */
function tailOf(path, bytes = 64 * 1024) {
  let fd;
  try {
    fd = openSync(path, 'r');
    const { size } = statSync(path);
    const buffer = Buffer.alloc(Math.min(size, bytes));
    readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences of a coloured log
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
/** npm's lines around a script (its `> pkg@1.0.0 test` banner, its `npm error` epilogue): no cause. */
const NPM_NOISE = /^(?:> |npm (?:error|ERR!) )/;
/** vitest's count of failed tests or files, in a task's output. */
const VITEST_FAILED = /^\s*Test(?:s| Files)\s+\d+ failed/m;

/**
 * The failed tasks of the newest turbo run summary (`turbo run --summarize` writes it to
 * `.turbo/runs/` of the folder it runs in, `cwd`) written at `since` or after: the task, its
 * package folder, its exit code, whether its output counts failed vitest tests, and the last
 * `lines` lines of its output (turbo's log of the task) without npm's own.
 */
export function failedTasks(cwd, since = 0, lines = 12) {
  const dir = join(cwd, '.turbo', 'runs');
  const [newest] = (existsSync(dir) ? readdirSync(dir) : [])
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
    .filter(({ at }) => at >= since)
    .sort((a, b) => b.at - a.at);
  let summary;
  try {
    summary = newest && JSON.parse(readFileSync(newest.path, 'utf8'));
  } catch {
    return [];
  }
  return (Array.isArray(summary?.tasks) ? summary.tasks : []).flatMap((task) => {
    const { exitCode, error } = task.execution ?? {};
    if (!((typeof exitCode === 'number' && exitCode !== 0) || error)) return [];
    const output = typeof task.logFile === 'string' ? tailOf(resolve(cwd, task.logFile)).replace(ANSI, '') : '';
    const kept = output.split(/\r?\n/).filter((line) => line.trim() !== '' && !NPM_NOISE.test(line));
    return [
      {
        task: String(task.taskId),
        package: task.directory && task.directory !== '.' ? String(task.directory) : '(root)',
        exitCode: typeof exitCode === 'number' ? exitCode : null,
        testsFailed: VITEST_FAILED.test(output),
        lastLines: kept.slice(-lines).map((line) => line.trimEnd()),
      },
    ];
  });
}

/**
 * The summary `npm test` prints after a failed run: each failed task of turbo's run (`tasks`, from
 * `failedTasks`), with the last lines of its output when no failing test of its package is among
 * `failures`; then each failing test.
 */
export function formatFailures(failures, tasks = []) {
  const lines = [];
  if (tasks.length > 0) {
    lines.push(`✖ ${tasks.length} failed ${tasks.length === 1 ? 'task' : 'tasks'} in turbo's run:`);
    for (const task of tasks) {
      const exit = task.exitCode === null ? 'failed' : `exit code ${task.exitCode}`;
      const tests = failures.filter((failure) => failure.package === task.package).length;
      if (task.testsFailed && tests > 0) {
        lines.push(`  ${task.task} (${exit}): failing tests of ${task.package} below`);
        continue;
      }
      const output = task.lastLines.length > 0 ? 'the last lines of its output:' : 'it printed nothing';
      lines.push(`  ${task.task} (${exit}), no failing test in a vitest report; ${output}`);
      lines.push(...task.lastLines.map((line) => `      ${line}`));
    }
  }
  if (failures.length === 0) {
    if (tasks.length === 0) {
      lines.push(
        '✖ No vitest report of this run has a failing test: the tasks turbo lists as failed above failed outside vitest (lint, types, a build); their output is above.',
      );
    }
    return lines.join('\n');
  }
  if (lines.length > 0) lines.push('');
  lines.push(
    `✖ ${failures.length} failing ${failures.length === 1 ? 'test' : 'tests'}, from the vitest reports of this run:`,
  );
  for (const { package: where, file, line, name, error } of failures) {
    const test = name ?? '(the file as a whole: it failed to load, or a hook failed)';
    lines.push('', `${where}  ${file}${line ? `:${line}` : ''}`, `  ${test}`, `  ${error}`);
  }
  return lines.join('\n');
}
