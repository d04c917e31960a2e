import { describe, expect, it } from 'vitest';
import { analyseReport, junitXml, summaryLines } from './reports.mjs';
import { MOCK_ONLY, STATEFUL_ONLY, skipOf, skipTitle } from './skips.mjs';

const ROOT = '/repo/apps/contract-tests';
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

/** A vitest JSON report: a pass, a failure, and one skip of each kind. */
const report = {
  testResults: [
    {
      name: `${ROOT}/src/log-stream.contract.test.ts`,
      status: 'passed',
      message: '',
      assertionResults: [
        test(
          'skipped',
          [skipTitle('streamBrowserLogs', 'CONTRACT_BROWSER_ID, CONTRACT_LOG_PATH are not set')],
          'parses events',
        ),
        test(
          'skipped',
          [skipTitle('streamBrowserLogs', 'CONTRACT_BROWSER_ID, CONTRACT_LOG_PATH are not set')],
          'refuses <bad> & "worse"',
        ),
        test('skipped', ['streamBrowserLogs'], skipTitle('answers 400', `${MOCK_ONLY} (target: server)`)),
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
  it('reads the reason from the meta of a case that skipped itself, else from its or a suite title', () => {
    expect(skipOf({ title: 't', meta: { skipReason: 'the log is empty' } })).toEqual({
      reason: 'the log is empty',
      kind: 'target-state',
      variables: [],
    });
    expect(skipOf({ ancestorTitles: [skipTitle('op', 'CONTRACT_PROXY_ID is not set')], title: 't' })).toEqual({
      reason: 'CONTRACT_PROXY_ID is not set',
      kind: 'unset-variable',
      variables: ['CONTRACT_PROXY_ID'],
    });
    expect(skipOf({ title: skipTitle('t', `${MOCK_ONLY} (target: proxy)`) }).kind).toBe('mock-only');
    expect(skipOf({ title: skipTitle('t', STATEFUL_ONLY) }).kind).toBe('stateful-only');
    expect(skipOf({ title: 't' })).toEqual({ reason: 'no reason given', kind: 'unexplained', variables: [] });
  });

  it('gathers every unset variable of the case and its suites; a case that cannot apply is skipped for that', () => {
    const nested = {
      ancestorTitles: [skipTitle('renameProfile', 'CONTRACT_PROFILE_ID is not set')],
      title: skipTitle('refuses a taken name', 'CONTRACT_TAKEN_PROFILE_NAME is not set'),
    };
    expect(skipOf(nested)).toEqual({
      reason: 'CONTRACT_PROFILE_ID is not set; CONTRACT_TAKEN_PROFILE_NAME is not set',
      kind: 'unset-variable',
      variables: ['CONTRACT_PROFILE_ID', 'CONTRACT_TAKEN_PROFILE_NAME'],
    });
    const preferCase = { ...nested, title: skipTitle('answers 409', `${MOCK_ONLY} (target: server)`) };
    expect(skipOf(preferCase)).toMatchObject({ kind: 'mock-only', variables: [] });
  });
});

describe('analyseReport', () => {
  it('counts each skip with its reason, names each unset variable once with the cases it cost', () => {
    const analysis = analyseReport(report, { mode: 'server', requireAll: false, root: ROOT });
    expect(analysis.operations).toEqual({
      streamBrowserLogs: { run: 0, passed: 0, failed: 0, skipped: 3 },
      // A skip without a reason is a failure: nothing is skipped silently.
      loginAuthConnection: { run: 3, passed: 1, failed: 2, skipped: 1 },
    });
    expect(analysis.unset).toEqual({
      CONTRACT_BROWSER_ID: ['streamBrowserLogs parses events', 'streamBrowserLogs refuses <bad> & "worse"'],
      CONTRACT_LOG_PATH: ['streamBrowserLogs parses events', 'streamBrowserLogs refuses <bad> & "worse"'],
    });
    expect(analysis.skips.map((s) => [s.case, s.kind, s.failed])).toEqual([
      ['streamBrowserLogs parses events', 'unset-variable', false],
      ['streamBrowserLogs refuses <bad> & "worse"', 'unset-variable', false],
      ['streamBrowserLogs answers 400', 'mock-only', false],
      ['loginAuthConnection rules a ProxyRef with id alone is accepted', 'target-state', false],
      ['loginAuthConnection filtered out by -t', 'unexplained', true],
    ]);
    expect(analysis.cases[0]!.file).toBe('src/log-stream.contract.test.ts');

    const lines = summaryLines(analysis).join('\n');
    expect(lines.match(/CONTRACT_BROWSER_ID is not set/g)).toHaveLength(1);
    expect(lines).toContain(
      'CONTRACT_BROWSER_ID is not set: 2 case(s) not run\n      - streamBrowserLogs parses events',
    );
    expect(lines).toContain(
      'a login flow was already in progress for CONTRACT_CONNECTION_ID before this case (409): 1 case(s)',
    );
    expect(lines).toContain('FAILED, no reason given: 1 case(s)');
  });

  it('under CONTRACT_REQUIRE_ALL fails every skip but the cases that cannot apply to the target', () => {
    const live = analyseReport(report, { mode: 'server', requireAll: true });
    expect(live.skips.filter((s) => !s.failed).map((s) => s.kind)).toEqual(['mock-only']);
    expect(live.cases.filter((c) => c.status === 'failed').map((c) => c.message)).toContain(
      'skipped under CONTRACT_REQUIRE_ALL: CONTRACT_BROWSER_ID, CONTRACT_LOG_PATH are not set',
    );
    const mockReport = {
      testResults: [
        {
          name: 'x',
          status: 'passed',
          message: '',
          assertionResults: [
            test('skipped', [], skipTitle('a', STATEFUL_ONLY)),
            test('skipped', [], skipTitle('b', `${MOCK_ONLY} (target: mock)`)),
          ],
        },
      ],
    };
    const mock = analyseReport(mockReport, { mode: 'mock', requireAll: true });
    expect(mock.skips.map((s) => [s.kind, s.failed])).toEqual([
      ['stateful-only', false],
      ['mock-only', true],
    ]);
  });

  it('fails the run when vitest wrote no report', () => {
    const { cases } = analyseReport(undefined, { mode: 'mock', requireAll: false });
    expect(cases).toEqual([expect.objectContaining({ status: 'failed', message: 'no report was written' })]);
  });
});

describe('junitXml', () => {
  it('writes each skip with its reason, each failure with its message, escaped', () => {
    const { cases } = analyseReport(report, { mode: 'server', requireAll: false, root: ROOT });
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
