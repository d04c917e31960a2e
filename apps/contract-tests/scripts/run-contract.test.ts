import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOperation, loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { DEFAULT_FIXTURE_REFS as R, startSandbox } from '@browser-cloud/sandbox';
import { startHostileServer } from '@browser-cloud/test-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { leftovers, noteCreated } from './created-resources.mjs';

const RUNNER = fileURLToPath(new URL('./run-contract.mjs', import.meta.url));
const TOKEN = 'sk_secret_runner_token';
/** The case file `npm run generate` writes for an operation (scripts/case-files.mjs). */
const caseFile = (operationId: string) =>
  `src/generated/${findOperation(loadOpenApiDocument(), operationId).names.file}.contract.test.ts`;
const RENAME_FILE = caseFile('renameProfile');
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function reportsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'contract-reports-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The runner with `env` and `args`, and none of the caller's API_* or CONTRACT_* settings. */
function runner(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
  const own = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(API|CONTRACT)_/.test(name)));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUNNER, ...args], { env: { ...own, NO_COLOR: '1', ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const lastLine = (output: string) => output.trim().split('\n').at(-1);
/** vitest's own count line, e.g. `Tests  4 failed | 39 passed | 21 skipped (64)`; a count it leaves out is 0. */
function vitestCounts(output: string): Record<string, number> {
  const line = /^\s*Tests\s+(.*)$/m.exec(output)?.[1] ?? '';
  const counts = [...line.matchAll(/(\d+) (failed|passed|skipped)/g)].map((m) => [m[2]!, Number(m[1])]);
  return { failed: 0, passed: 0, skipped: 0, ...Object.fromEntries(counts) };
}

describe('the runner', () => {
  it('writes junit.xml (one failed case, preflight) and summary.json when the preflight refuses the run', async () => {
    const server = await startHostileServer((request, response) => {
      request.resume();
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"unauthorized","message":"no"}');
    });
    cleanups.push(() => server.close());
    const reports = reportsDir();

    const { code, output } = await runner({
      API_BASE_URL: server.url,
      API_TOKEN: TOKEN,
      CONTRACT_REPORTS_DIR: reports,
      CONTRACT_SEED: '5',
    });

    expect(code).toBe(1);
    const message = `preflight: ${server.url} refused API_TOKEN (401 Unauthorized); check the token; no case was run`;
    expect(output).toContain(message);
    const junit = readFileSync(join(reports, 'server', 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuites name="contract server" tests="1" failures="1" skipped="0" errors="0">');
    expect(junit).toContain(`<testcase classname="preflight" name="preflight">\n      <failure message="${message}">`);
    const summary = JSON.parse(readFileSync(join(reports, 'server', 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ target: 'server', seed: 5, exitCode: 1, failed: 1, preflight: message });
    expect(lastLine(output)).toBe(
      'contract: FAILED: 1 cases run (0 passed, 1 failed), 0 not applicable to the target, 0 skipped; preflight refused',
    );
    expect(junit + JSON.stringify(summary) + output).not.toContain(TOKEN);
  });

  it('scrubs the token from its output and every report when the server echoes it', async () => {
    // Every answer carries the Authorization header it was sent: each failure quotes it.
    const server = await startHostileServer((request, response) => {
      request.resume();
      response
        .writeHead(200, { 'content-type': 'application/json', 'x-echo': String(request.headers.authorization) })
        .end(JSON.stringify({ echo: request.headers.authorization }));
    });
    cleanups.push(() => server.close());
    const reports = reportsDir();

    const { code, output } = await runner(
      {
        API_BASE_URL: server.url,
        API_TOKEN: TOKEN,
        CONTRACT_PROFILE_ID: 'prof_echo',
        CONTRACT_RUNS: '2',
        CONTRACT_REPORTS_DIR: reports,
      },
      [RENAME_FILE],
    );

    expect(code).toBe(1);
    const files = ['junit.xml', 'report.json', 'summary.json'].map((file) =>
      readFileSync(join(reports, 'server', file), 'utf8'),
    );
    for (const text of [output, ...files]) expect(text).not.toContain(TOKEN);
    // Every report the output names is there after the run, vitest's JSON report included.
    expect(output).toContain(`JSON report written to ${join(reports, 'server', 'report.json')}`);
    const named = [...output.matchAll(/(?:^|\s)(\/\S+\.(?:json|xml))\b/gm)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((path) => !existsSync(path))).toEqual([]);
    // The echo reached the reports, scrubbed.
    expect(output).toContain('Bearer [token]');
    expect(files[0]).toContain('Bearer [token]');
    expect(files[1]).toContain('Bearer [token]');
  });

  it('fails a live run whose cases cannot run for a variable not set; --allow-skips lets them be skipped', async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true });
    cleanups.push(() => sandbox.close());
    const env = {
      API_BASE_URL: sandbox.url,
      API_TOKEN: R.tokens.owner,
      CONTRACT_RUNS: '2',
      CONTRACT_REPORTS_DIR: reportsDir(),
    };

    const strict = await runner(env, [RENAME_FILE]);
    expect(strict.code).toBe(1);
    expect(strict.output).toContain('CONTRACT_PROFILE_ID is not set');
    // The cases that could not run fail the run, and are not counted as run (nor as failed ones).
    const failed =
      /^contract: FAILED: (\d+) cases run \((\d+) passed, 0 failed\), (\d+) could not run \(each fails the run; --allow-skips skips them\), (\d+) not applicable to the target, 0 skipped$/.exec(
        lastLine(strict.output) ?? '',
      );
    expect(failed, lastLine(strict.output)).not.toBeNull();
    const [, run, passed, failures, notApplicable] = failed!.map(Number);
    expect(run).toBe(passed);
    expect(failures).toBeGreaterThan(0);
    expect(notApplicable).toBeGreaterThan(0);
    // vitest's own summary counts the same cases (for vitest, a case that could not run failed).
    expect(vitestCounts(strict.output)).toEqual({ failed: failures, passed, skipped: notApplicable });

    const lenient = await runner(env, ['--allow-skips', RENAME_FILE]);
    expect(lenient.code).toBe(0);
    const passedLine =
      /^contract: PASSED: (\d+) cases run \((\d+) passed, 0 failed\), (\d+) not applicable to the target, (\d+) skipped$/.exec(
        lastLine(lenient.output) ?? '',
      );
    expect(passedLine, lastLine(lenient.output)).not.toBeNull();
    const [, , okCount, naCount, skipped] = passedLine!.map(Number);
    expect(skipped).toBe(failures);
    expect(vitestCounts(lenient.output)).toEqual({ failed: 0, passed: okCount, skipped: naCount! + skipped! });
  });

  it('checks every response of every case file against the document, the files sharing one worker’s modules', async () => {
    // Answers the document does not declare: the suite's setup must fail each file's cases for
    // them, not only the first file's, though the files share the observing fetch (isolate: false).
    const server = await startHostileServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"zz_not_in_document":1}');
    });
    cleanups.push(() => server.close());
    const reports = reportsDir();
    const files = [RENAME_FILE, caseFile('loginAuthConnection')];
    const env = {
      API_BASE_URL: server.url,
      API_TOKEN: TOKEN,
      CONTRACT_PROFILE_ID: 'prof_x',
      CONTRACT_CONNECTION_ID: 'ac_x',
      CONTRACT_RUNS: '2',
      CONTRACT_REPORTS_DIR: reports,
    };

    const { code } = await runner(env, ['--allow-skips', ...files]);

    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(join(reports, 'server', 'report.json'), 'utf8')) as {
      testResults: Array<{ name: string; assertionResults: Array<{ failureMessages: string[] }> }>;
    };
    for (const file of files) {
      const result = report.testResults.find((r) => r.name.endsWith(file));
      const messages = result?.assertionResults.flatMap((a) => a.failureMessages).join('\n') ?? '';
      expect(messages, file).toContain('responses that disagree with openapi/openapi.yaml');
    }
  });

  it('leaves a sandbox so that a second run in a row passes too (it resets it through /_sandbox/reset)', async () => {
    // The login rules start flows that last ten minutes: without the reset, the second run's
    // first login meets a 409 and cannot check what it must.
    const sandbox = await startSandbox({ port: 0, quiet: true });
    cleanups.push(() => sandbox.close());
    const env = { CONTRACT_SANDBOX_URL: sandbox.url, CONTRACT_RUNS: '2', CONTRACT_REPORTS_DIR: reportsDir() };
    const args = ['--target', 'live-sandbox', caseFile('loginAuthConnection')];
    for (const run of ['first', 'second']) {
      const { code, output } = await runner(env, args);
      expect(code, `${run} run:\n${output}`).toBe(0);
      expect(lastLine(output)).toMatch(/^contract: PASSED: /);
    }
  });

  it('deletes what an earlier run on the same server created and left (its ledger), before the cases', async () => {
    const server = await startHostileServer((request, response) => {
      request.resume();
      response.writeHead(request.method === 'DELETE' ? 204 : 200, { 'content-type': 'application/json' }).end('{}');
    });
    cleanups.push(() => server.close());
    const reports = reportsDir();
    // A run killed before its case files' afterAll: what it created is still in its ledger.
    mkdirSync(join(reports, 'server'));
    const ledger = join(reports, 'server', 'created.jsonl');
    noteCreated(ledger, server.url, 'DELETE /profiles/prof_left_by_a_crash');
    noteCreated(ledger, 'http://127.0.0.1:9', 'DELETE /profiles/prof_of_another_server');

    const { output } = await runner(
      {
        API_BASE_URL: server.url,
        API_TOKEN: TOKEN,
        CONTRACT_PROFILE_ID: 'prof_given',
        CONTRACT_RUNS: '1',
        CONTRACT_REPORTS_DIR: reports,
      },
      ['--allow-skips', RENAME_FILE],
    );

    expect(output).toContain('[contract] deleted what an earlier run created and left');
    const deletes = server.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => `${r.url} ${r.authorization}`)).toEqual([
      `/profiles/prof_left_by_a_crash Bearer ${TOKEN}`,
    ]);
    expect(server.requests.indexOf(deletes[0]!)).toBeLessThan(server.requests.findIndex((r) => r.method === 'PATCH'));
    expect(leftovers(ledger)).toEqual([]);
  });
});
