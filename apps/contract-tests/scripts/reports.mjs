// What a run reports (README, "Reports"), from vitest's JSON report, where a case that did not run
// says why in its meta (`skipReason`). junit.xml is ours: vitest's writes `<skipped/>` without it.

/** Cases that need Prism's `Prefer` header: they mean something on the mock only. */
export const MOCK_ONLY = "needs Prism's Prefer header, which only the mock honours";
/** Cases that need a server that keeps state: the mock answers from examples. */
export const STATEFUL_ONLY = 'needs a server that keeps state; the mock answers every request from examples';

function kindOf(reason) {
  if (reason.startsWith(MOCK_ONLY)) return 'mock-only';
  if (reason.startsWith(STATEFUL_ONLY)) return 'stateful-only';
  return / (is|are) not set$/.test(reason) ? 'unset-variable' : 'target-state';
}

/**
 * Why a case of vitest's JSON report did not run; kind `target-state` for anything else the target
 * made impossible to check, `unexplained` for no reason at all (a `-t` filter…: never intended).
 * @param {{ meta?: { skipReason?: string } }} assertion
 * @returns {{ reason: string, kind: string, variables: string[] }}
 */
export function skipOf({ meta }) {
  const reason = meta?.skipReason;
  if (!reason) return { reason: 'no reason given', kind: 'unexplained', variables: [] };
  const kind = kindOf(reason);
  return { reason, kind, variables: kind === 'unset-variable' ? [...new Set(reason.match(/CONTRACT_[A-Z_]+/g))] : [] };
}

const STATUSES = ['passed', 'failed', 'not-applicable', 'skipped'];

/**
 * Each case `passed`, `failed`, `not-applicable` or `skipped` (README), a case that did not run with its reason.
 * @param {any} report vitest's JSON report, or undefined when none was written
 * @param {{ mode: string, allowSkips: boolean, root?: string }} options `root`: file names are given relative to it
 */
export function analyseReport(report, { mode, allowSkips, root }) {
  const cases = [];
  for (const { name: path, ...file } of report?.testResults ?? []) {
    const fileName = root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
    for (const test of file.assertionResults) {
      const operation = (test.ancestorTitles[0] ?? fileName).split(' ')[0];
      const c = { file: fileName, operation, name: [...test.ancestorTitles, test.title].join(' ') };
      if (test.status === 'passed') cases.push({ ...c, status: 'passed', time: test.duration });
      else if (test.status === 'failed') {
        const skip = test.meta?.skipReason ? { skip: skipOf(test) } : {};
        cases.push({ ...c, status: 'failed', time: test.duration, message: test.failureMessages.join('\n'), ...skip });
      } else {
        const skip = skipOf(test);
        // A skip without any reason (a -t filter…) is never intended: a failure, always.
        const notRun = allowSkips && skip.kind !== 'unexplained' ? 'skipped' : 'failed';
        const status = skip.kind === (mode === 'mock' ? 'stateful-only' : 'mock-only') ? 'not-applicable' : notRun;
        cases.push({ ...c, status, message: status === 'failed' ? `not run: ${skip.reason}` : skip.reason, skip });
      }
    }
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      const message = file.message || 'the file failed';
      cases.push({ file: fileName, operation: fileName, name: fileName, status: 'failed', message });
    }
  }
  if (!report) cases.push({ file: 'vitest', name: 'vitest', status: 'failed', message: 'no report was written' });
  const operations = {};
  for (const c of cases.filter((c) => c.operation)) {
    operations[c.operation] ??= Object.fromEntries(STATUSES.map((status) => [status, 0]));
    operations[c.operation][c.status]++;
  }
  const notRun = cases
    .filter((c) => c.skip && c.status !== 'not-applicable')
    .map((c) => ({ case: c.name, failed: c.status === 'failed', operation: c.operation, ...c.skip }));
  const unset = {};
  for (const skip of notRun)
    for (const variable of skip.variables) unset[variable] = [...(unset[variable] ?? []), skip.case];
  return { operations, cases, notRun, unset };
}

/**
 * How many cases of each kind. `failed` counts the cases that ran and failed; `notRun` those that
 * could not run (a variable not set, the target not ready), which fail the run without
 * `--allow-skips` but were never run.
 */
export function countCases(cases) {
  const count = (status) => cases.filter((c) => c.status === status).length;
  const [passed, failedOrNotRun, notApplicable, skipped] = STATUSES.map(count);
  const notRun = cases.filter((c) => c.status === 'failed' && c.skip).length;
  return { passed, failed: failedOrNotRun - notRun, notRun, notApplicable, skipped };
}

/** The last line of a run: one verdict, then the cases run, not run, not applicable and skipped, each once. */
export function verdictLine({ passed, failed, notRun = 0, notApplicable, skipped }, problems = []) {
  const verdict = failed > 0 || notRun > 0 || problems.length > 0 ? 'FAILED' : 'PASSED';
  const why = problems.map((problem) => `; ${problem}`).join('');
  const unrun = notRun > 0 ? `, ${notRun} could not run (each fails the run; --allow-skips skips them)` : '';
  return `contract: ${verdict}: ${passed + failed} cases run (${passed} passed, ${failed} failed)${unrun}, ${notApplicable} not applicable to the target, ${skipped} skipped${why}`;
}

/** The console lines: a row per operation, then the cases that did not run, grouped by reason. */
export function summaryLines({ operations, cases, notRun, unset }) {
  const row = (counts) => STATUSES.map((s) => `${String(counts[s]).padStart(3)} ${s.replace('-', ' ')}`).join(' ');
  const lines = Object.entries(operations).map(([operation, counts]) => `  ${operation.padEnd(24)} ${row(counts)}`);
  const groups = new Map();
  const add = (key, name) => groups.set(key, [...(groups.get(key) ?? []), name]);
  for (const [variable, cost] of Object.entries(unset)) for (const name of cost) add(`${variable} is not set`, name);
  for (const skip of notRun.filter((s) => s.kind !== 'unset-variable')) add(skip.reason, skip.case);
  for (const c of cases.filter((c) => c.status === 'not-applicable')) add(`not applicable: ${c.message}`, c.name);
  if (groups.size > 0) lines.push('  not run, each with its reason:');
  for (const [reason, names] of groups)
    lines.push(`    ${reason}: ${names.length} case(s)`, ...names.map((n) => `      - ${n}`));
  return lines;
}

const escapeXml = (text) =>
  String(text)
    // Characters XML 1.0 cannot hold (terminal colours' ESC among them).
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** junit.xml of the cases: one testsuite per file, `<skipped message="reason">` for each case that did not run. */
export function junitXml(cases, suiteName = 'contract') {
  const files = new Map();
  for (const c of cases) files.set(c.file, [...(files.get(c.file) ?? []), c]);
  const tally = (list) => {
    // A case that could not run, and so failed the run, is a junit failure (its message says why).
    const { failed, notRun, notApplicable, skipped } = countCases(list);
    return `tests="${list.length}" failures="${failed + notRun}" skipped="${notApplicable + skipped}" errors="0"`;
  };
  const out = [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    `<testsuites name="${escapeXml(suiteName)}" ${tally(cases)}>`,
  ];
  for (const [file, list] of files) {
    out.push(`  <testsuite name="${escapeXml(file)}" ${tally(list)}>`);
    for (const c of list) {
      const time = c.time === undefined ? '' : ` time="${(c.time / 1000).toFixed(3)}"`;
      out.push(`    <testcase classname="${escapeXml(file)}" name="${escapeXml(c.name)}"${time}>`);
      const firstLine = escapeXml((c.message ?? '').split('\n')[0]);
      if (c.status === 'not-applicable') out.push(`      <skipped message="not applicable: ${firstLine}"/>`);
      if (c.status === 'skipped') out.push(`      <skipped message="${firstLine}"/>`);
      if (c.status === 'failed')
        out.push(`      <failure message="${firstLine}">${escapeXml(c.message ?? '')}</failure>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  return `${[...out, '</testsuites>'].join('\n')}\n`;
}
