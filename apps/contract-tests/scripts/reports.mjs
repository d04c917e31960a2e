// What a run of the suite reports, from vitest's JSON report: the rows per operation, every skip
// with its reason (and, for unset variables, each variable once with the cases it cost), and
// junit.xml. vitest's own JUnit reporter writes `<skipped/>` without a reason, and nothing at all
// for a case that skipped itself, so the runner writes junit.xml from here.
import { exemptFromRequireAll, skipOf } from './skips.mjs';

const STATUS = { passed: 'passed', failed: 'failed' };
const withoutReason = (title) => title.replace(/ \(skipped: .*\)$/, '');

/**
 * @param {any} report vitest's JSON report, or undefined when none was written
 * @param {{ mode: string, requireAll: boolean, root?: string }} options `root`: file names are given relative to it
 */
export function analyseReport(report, { mode, requireAll, root }) {
  const operations = {};
  const cases = [];
  if (!report) {
    return {
      operations,
      cases: [{ file: 'vitest', name: 'vitest', status: 'failed', message: 'no report was written' }],
      skips: [],
      unset: {},
    };
  }
  for (const { name: path, ...file } of report.testResults) {
    file.name = root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
    for (const test of file.assertionResults) {
      const operation = (test.ancestorTitles[0] ?? file.name).split(' ')[0];
      operations[operation] ??= { run: 0, passed: 0, failed: 0, skipped: 0 };
      const row = operations[operation];
      // The reason of a skip is in its title; the reports say it once, beside the name.
      const name = [...test.ancestorTitles, test.title].map(withoutReason).join(' ');
      if (STATUS[test.status]) {
        row.run++;
        row[test.status]++;
        cases.push({
          file: file.name,
          name,
          status: test.status,
          time: test.duration,
          ...(test.status === 'failed' ? { message: test.failureMessages.join('\n') } : {}),
        });
        continue;
      }
      const skip = skipOf(test);
      const exempt = exemptFromRequireAll(skip.kind, mode);
      // Under CONTRACT_REQUIRE_ALL a skip fails the run, except where the case cannot mean
      // anything on this target; a skip with no reason at all is never intended.
      if ((requireAll && !exempt) || skip.kind === 'unexplained') {
        row.run++;
        row.failed++;
        cases.push({
          file: file.name,
          name,
          status: 'failed',
          message: `skipped${requireAll && !exempt ? ' under CONTRACT_REQUIRE_ALL' : ''}: ${skip.reason}`,
          skip: { operation, ...skip },
        });
      } else {
        row.skipped++;
        cases.push({ file: file.name, name, status: 'skipped', message: skip.reason, skip: { operation, ...skip } });
      }
    }
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      operations[file.name] = { run: 1, passed: 0, failed: 1, skipped: 0 };
      cases.push({ file: file.name, name: file.name, status: 'failed', message: file.message || 'the file failed' });
    }
  }
  const skips = cases.filter((c) => c.skip).map((c) => ({ case: c.name, failed: c.status === 'failed', ...c.skip }));
  /** Each unset variable once, with the cases it cost. */
  const unset = {};
  for (const skip of skips) {
    for (const variable of skip.variables) unset[variable] = [...(unset[variable] ?? []), skip.case];
  }
  return { operations, cases, skips, unset };
}

/** The console lines: a row per operation, then the skips grouped by reason. */
export function summaryLines({ operations, skips, unset }) {
  const lines = Object.entries(operations).map(
    ([operation, r]) =>
      `  ${operation.padEnd(24)} ${String(r.run).padStart(3)} run ${String(r.passed).padStart(3)} passed ${String(r.failed).padStart(3)} failed${r.skipped ? ` ${r.skipped} skipped` : ''}`,
  );
  if (skips.length === 0) return lines;
  lines.push(`  skipped (${skips.length}), each with its reason:`);
  for (const [variable, cost] of Object.entries(unset)) {
    lines.push(`    ${variable} is not set: ${cost.length} case(s) not run`);
    for (const name of cost) lines.push(`      - ${name}`);
  }
  const byReason = new Map();
  for (const skip of skips.filter((s) => s.kind !== 'unset-variable')) {
    const key = `${skip.failed ? 'FAILED, ' : ''}${skip.reason}`;
    byReason.set(key, [...(byReason.get(key) ?? []), skip.case]);
  }
  for (const [reason, names] of byReason) {
    lines.push(`    ${reason}: ${names.length} case(s)`);
    for (const name of names) lines.push(`      - ${name}`);
  }
  return lines;
}

const escapeXml = (text) =>
  String(text)
    // Characters XML 1.0 cannot hold (terminal colours' ESC among them).
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** junit.xml of the cases: one testsuite per file, `<skipped message="reason">` for each skip. */
export function junitXml(cases, suiteName = 'contract') {
  const files = new Map();
  for (const c of cases) files.set(c.file, [...(files.get(c.file) ?? []), c]);
  const count = (list, status) => list.filter((c) => c.status === status).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    `<testsuites name="${escapeXml(suiteName)}" tests="${cases.length}" failures="${count(cases, 'failed')}" skipped="${count(cases, 'skipped')}" errors="0">`,
  ];
  for (const [file, list] of files) {
    out.push(
      `  <testsuite name="${escapeXml(file)}" tests="${list.length}" failures="${count(list, 'failed')}" skipped="${count(list, 'skipped')}" errors="0">`,
    );
    for (const c of list) {
      const time = c.time === undefined ? '' : ` time="${(c.time / 1000).toFixed(3)}"`;
      out.push(`    <testcase classname="${escapeXml(file)}" name="${escapeXml(c.name)}"${time}>`);
      const firstLine = (c.message ?? '').split('\n')[0];
      if (c.status === 'skipped') out.push(`      <skipped message="${escapeXml(firstLine)}"/>`);
      if (c.status === 'failed') {
        out.push(`      <failure message="${escapeXml(firstLine)}">${escapeXml(c.message ?? '')}</failure>`);
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
