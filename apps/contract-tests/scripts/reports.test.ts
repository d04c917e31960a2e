import { describe, expect, it } from 'vitest';
import {
  analyseReport,
  countCases,
  junitXml,
  MOCK_ONLY,
  STATEFUL_ONLY,
  skipOf,
  summaryLines,
  verdictLine,
} from './reports.mjs';

const ROOT = '/repo/apps/contract-tests';
/** A case of vitest's JSON report; one that did not run says why in its meta, as the suite's cases do. */
const test = (status: string, ancestorTitles: string[], title: string, extra: Record<string, unknown> = {}) => ({
  ancestorTitles,
  title,
  fullName: [...ancestorTitles, title].join(' '),
  status,
  duration: 12,
  failureMessages: status === 'failed' ? ['loginAuthConnection: the rule "x" is broken\n  reproduce: curl …'] : [],
  meta: {},
  ...extra,
});

const because = (skipReason: string) => ({ meta: { skipReason } });
const unsetLog = because('CONTRACT_BROWSER_ID, CONTRACT_LOG_PATH are not set');

/** A vitest JSON report: a pass, a failure, and one skip of each kind. */
const report = {
  testResults: [
    {
      name: `${ROOT}/src/log-stream.contract.test.ts`,
      status: 'passed',
      message: '',
      assertionResults: [
        test('skipped', ['streamBrowserLogs'], 'parses events', unsetLog),
        test('skipped', ['streamBrowserLogs'], 'refuses <bad> & "worse"', unsetLog),
        test('skipped', ['streamBrowserLogs'], 'answers 400', because(`${MOCK_ONLY} (target: server)`)),
      ],
    },
    {
      name: `${ROOT}/src/generated/loginAuthConnection.contract.test.ts`,
      status: 'failed',
      message: '',
      assertionResults: [
        test('passed', ['loginAuthConnection rules'], 'a second login answers 409'),
        test('failed', ['loginAuthConnection rules'], 'a login starts a LOGIN flow'),
        test('skipped', ['loginAuthConnection rules'], 'a ProxyRef with id alone is accepted', {
          meta: {
            skipReason: 'a login flow was already in progress for CONTRACT_CONNECTION_ID before this case (409)',
          },
        }),
        test('skipped', ['loginAuthConnection'], 'filtered out by -t'),
      ],
    },
  ],
};

describe('skipOf', () => {
  it('reads the reason from the meta of the case, naming each unset variable once', () => {
    expect(skipOf(because('the log is empty'))).toEqual({
      reason: 'the log is empty',
      kind: 'target-state',
      variables: [],
    });
    expect(skipOf(because('CONTRACT_PROXY_ID, CONTRACT_ZZ_ID, CONTRACT_PROXY_ID are not set'))).toEqual({
      reason: 'CONTRACT_PROXY_ID, CONTRACT_ZZ_ID, CONTRACT_PROXY_ID are not set',
      kind: 'unset-variable',
      variables: ['CONTRACT_PROXY_ID', 'CONTRACT_ZZ_ID'],
    });
    expect(skipOf(because(`${MOCK_ONLY} (target: proxy)`)).kind).toBe('mock-only');
    expect(skipOf(because(STATEFUL_ONLY)).kind).toBe('stateful-only');
    expect(skipOf({ meta: {} })).toEqual({ reason: 'no reason given', kind: 'unexplained', variables: [] });
  });
});

describe('analyseReport', () => {
  it('fails every case that could not run off the mock, naming each unset variable once with the cases it cost', () => {
    const analysis = analyseReport(report, { mode: 'server', allowSkips: false, root: ROOT });
    expect(analysis.operations).toEqual({
      streamBrowserLogs: { passed: 0, failed: 2, 'not-applicable': 1, skipped: 0 },
      loginAuthConnection: { passed: 1, failed: 3, 'not-applicable': 0, skipped: 0 },
    });
    expect(analysis.unset).toEqual({
      CONTRACT_BROWSER_ID: ['streamBrowserLogs parses events', 'streamBrowserLogs refuses <bad> & "worse"'],
      CONTRACT_LOG_PATH: ['streamBrowserLogs parses events', 'streamBrowserLogs refuses <bad> & "worse"'],
    });
    expect(analysis.notRun.map((s) => [s.case, s.kind, s.failed])).toEqual([
      ['streamBrowserLogs parses events', 'unset-variable', true],
      ['streamBrowserLogs refuses <bad> & "worse"', 'unset-variable', true],
      ['loginAuthConnection rules a ProxyRef with id alone is accepted', 'target-state', true],
      ['loginAuthConnection filtered out by -t', 'unexplained', true],
    ]);
    expect(analysis.cases[0]!.file).toBe('src/log-stream.contract.test.ts');
    expect(analysis.cases.find((c) => c.name.endsWith('answers 400'))).toMatchObject({
      status: 'not-applicable',
      message: `${MOCK_ONLY} (target: server)`,
    });
    // Four of the five failures never ran (two variables not set, a target state, a -t filter).
    expect(countCases(analysis.cases)).toEqual({ passed: 1, failed: 1, notRun: 4, notApplicable: 1, skipped: 0 });

    const lines = summaryLines(analysis).join('\n');
    expect(lines.match(/CONTRACT_BROWSER_ID is not set/g)).toHaveLength(1);
    expect(lines).toContain('CONTRACT_BROWSER_ID is not set: 2 case(s)\n      - streamBrowserLogs parses events');
    expect(lines).toContain(
      'a login flow was already in progress for CONTRACT_CONNECTION_ID before this case (409): 1 case(s)',
    );
    expect(lines).toContain('no reason given: 1 case(s)');
    expect(lines).toContain(`not applicable: ${MOCK_ONLY} (target: server): 1 case(s)`);
  });

  it('keeps a case that failed because it could not run with its reason', () => {
    const failedNotRun = test('failed', ['renameProfile'], 'a rename answers 200', {
      failureMessages: ['not run: CONTRACT_PROFILE_ID is not set'],
      meta: { skipReason: 'CONTRACT_PROFILE_ID is not set' },
    });
    const analysis = analyseReport(
      { testResults: [{ name: 'f', status: 'failed', message: '', assertionResults: [failedNotRun] }] },
      { mode: 'server', allowSkips: false },
    );
    expect(analysis.unset).toEqual({ CONTRACT_PROFILE_ID: ['renameProfile a rename answers 200'] });
    expect(countCases(analysis.cases)).toMatchObject({ failed: 0, notRun: 1, skipped: 0 });
  });

  it('with --allow-skips lets a case that could not run be skipped, but never one without a reason', () => {
    const analysis = analyseReport(report, { mode: 'server', allowSkips: true });
    expect(analysis.notRun.map((s) => [s.kind, s.failed])).toEqual([
      ['unset-variable', false],
      ['unset-variable', false],
      ['target-state', false],
      ['unexplained', true],
    ]);
    expect(countCases(analysis.cases)).toEqual({ passed: 1, failed: 1, notRun: 1, notApplicable: 1, skipped: 3 });
  });

  it('lists the stateful cases as not applicable on the mock, and a Prefer case there as a failure', () => {
    const mockReport = {
      testResults: [
        {
          name: 'x',
          status: 'passed',
          message: '',
          assertionResults: [
            test('skipped', [], 'a', because(STATEFUL_ONLY)),
            test('skipped', [], 'b', because(`${MOCK_ONLY} (target: mock)`)),
          ],
        },
      ],
    };
    const { cases } = analyseReport(mockReport, { mode: 'mock', allowSkips: false });
    expect(cases.map((c) => c.status)).toEqual(['not-applicable', 'failed']);
  });

  it('fails the run when vitest wrote no report', () => {
    const { cases } = analyseReport(undefined, { mode: 'mock', allowSkips: false });
    expect(cases).toEqual([expect.objectContaining({ status: 'failed', message: 'no report was written' })]);
  });
});

describe('verdictLine', () => {
  it('states one verdict and the cases run, not applicable, skipped and failed, each once', () => {
    expect(verdictLine({ passed: 39, failed: 4, notApplicable: 21, skipped: 0 })).toBe(
      'contract: FAILED: 43 cases run (39 passed, 4 failed), 21 not applicable to the target, 0 skipped',
    );
    expect(verdictLine({ passed: 39, failed: 0, notApplicable: 21, skipped: 3 })).toBe(
      'contract: PASSED: 39 cases run (39 passed, 0 failed), 21 not applicable to the target, 3 skipped',
    );
    expect(verdictLine({ passed: 1, failed: 0, notApplicable: 0, skipped: 0 }, ['preflight refused'])).toMatch(
      /^contract: FAILED: .*; preflight refused$/,
    );
  });

  it('counts the cases that could not run apart from those run, and fails the run for them', () => {
    expect(verdictLine({ passed: 18, failed: 0, notRun: 4, notApplicable: 21, skipped: 0 })).toBe(
      'contract: FAILED: 18 cases run (18 passed, 0 failed), 4 could not run (each fails the run; --allow-skips skips them), 21 not applicable to the target, 0 skipped',
    );
  });
});

describe('junitXml', () => {
  it('writes each skip with its reason, each failure with its message, escaped', () => {
    const { cases } = analyseReport(report, { mode: 'server', allowSkips: true, root: ROOT });
    const xml = junitXml(cases, 'contract server');
    expect(xml).toContain('<testsuites name="contract server" tests="7" failures="2" skipped="4" errors="0">');
    expect(xml).toContain(
      '<testcase classname="src/log-stream.contract.test.ts" name="streamBrowserLogs refuses &lt;bad&gt; &amp; &quot;worse&quot;">\n      <skipped message="CONTRACT_BROWSER_ID, CONTRACT_LOG_PATH are not set"/>',
    );
    expect(xml).toContain(
      '<skipped message="a login flow was already in progress for CONTRACT_CONNECTION_ID before this case (409)"/>',
    );
    expect(xml).toContain('<failure message="loginAuthConnection: the rule &quot;x&quot; is broken">');
    expect(xml).not.toMatch(/<skipped\/>/);
  });

  it('strips characters XML cannot hold', () => {
    const xml = junitXml([{ file: 'f', name: 'n', status: 'failed', message: '\u001b[31mred\u001b[39m' }]);
    expect(xml).toContain('<failure message="[31mred[39m">');
  });
});
