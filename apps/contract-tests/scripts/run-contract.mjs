#!/usr/bin/env node
// Runs the contract suite against one or more targets and prints a summary per operation.
//
//   node scripts/run-contract.mjs                 # target from the environment (below), else the Prism mock
//   node scripts/run-contract.mjs --target mock --target sandbox --target live-sandbox
//   node scripts/run-contract.mjs --shard=1/3     # any other argument goes to vitest (files, options)
//   node scripts/run-contract.mjs --allow-skips   # a case that cannot run is skipped, not failed
//
// Environment: API_UPSTREAM_URL + API_TOKEN → Prism's validating proxy (--errors) in front of that
// server; API_BASE_URL + API_TOKEN → that server directly. The resources the cases may use come
// from CONTRACT_* variables (see README). CONTRACT_SEED and CONTRACT_RUNS steer the generated
// cases; CONTRACT_ALLOW_SKIPS=1 is --allow-skips; CONTRACT_SANDBOX_URL points the sandbox targets
// at a running sandbox. Reports: reports/<target>/ (CONTRACT_REPORTS_DIR for another place), kept
// after the run, with every configured token scrubbed, whatever the server sent.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { missingCoverage } from './coverage.mjs';
import { preflight } from './preflight.mjs';
import { analyseReport, countCases, junitXml, summaryLines, verdictLine } from './reports.mjs';
import { pinnedSeeds, seedFromEnv } from './seeds.mjs';
import { prepareTarget } from './targets.mjs';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const REPORTS_DIR = process.env.CONTRACT_REPORTS_DIR || join(APP_DIR, 'reports');
const VITEST = fileURLToPath(new URL('../../../node_modules/.bin/vitest', import.meta.url));
const isSet = (name) => ['1', 'true'].includes(process.env[name] ?? '');

function parseArgs(argv) {
  const targets = [];
  const vitestArgs = [];
  let allowSkips = isSet('CONTRACT_ALLOW_SKIPS');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--allow-skips') allowSkips = true;
    else if (argv[i] === '--target') targets.push(argv[++i]);
    else if (argv[i].startsWith('--target=')) targets.push(argv[i].slice('--target='.length));
    else if (argv[i] !== '--') vitestArgs.push(argv[i]);
  }
  if (targets.length === 0)
    targets.push(process.env.API_UPSTREAM_URL ? 'proxy' : process.env.API_BASE_URL ? 'server' : 'mock');
  return { targets, vitestArgs, allowSkips };
}

function runsFromEnv(raw = process.env.CONTRACT_RUNS) {
  if (raw === undefined || raw === '') return 20;
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`CONTRACT_RUNS must be a positive integer, got "${raw}"`);
  return runs;
}

/** Every configured token, as written and JSON-escaped, replaced: a server may echo it into any answer. */
function scrubberOf(tokens) {
  const forms = [...new Set(tokens.filter(Boolean).flatMap((t) => [t, JSON.stringify(t).slice(1, -1)]))];
  return (text) => forms.reduce((out, form) => out.replaceAll(form, '[token]'), text);
}

const cleanups = [];
async function cleanup() {
  while (cleanups.length > 0)
    await cleanups
      .pop()()
      .catch((error) => console.error(`[contract] ${error.message}`));
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    console.error(`\n[contract] ${signal}: stopping servers`);
    await cleanup();
    process.exit(130);
  });
}

/** vitest's output, scrubbed line by line (a token never spans lines). */
function forward(from, to, scrub) {
  let pending = '';
  from.setEncoding('utf8');
  from.on('data', (chunk) => {
    pending += chunk;
    const end = pending.lastIndexOf('\n') + 1;
    to.write(scrub(pending.slice(0, end)));
    pending = pending.slice(end);
  });
  from.on('end', () => to.write(scrub(pending)));
}

function runVitest(env, reportFile, vitestArgs, scrub) {
  return new Promise((resolve) => {
    const args = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...vitestArgs];
    const colour = process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {};
    const child = spawn(VITEST, args, {
      cwd: APP_DIR,
      env: { ...process.env, ...colour, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    forward(child.stdout, process.stdout, scrub);
    forward(child.stderr, process.stderr, scrub);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** One target: its reports, its summary lines, its counts and what else failed it. */
async function runTarget(mode, { seed, pinned, runs, vitestArgs, allowSkips }) {
  const reportDir = join(REPORTS_DIR, mode);
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const { describe, ...env } = await prepareTarget(mode, cleanups);
  console.log(`\n[contract] target ${mode}: ${describe}`);
  const suiteEnv = Object.fromEntries(
    Object.entries({
      CONTRACT_MODE: mode,
      ...env,
      CONTRACT_SEED: String(seed),
      CONTRACT_PINNED_SEEDS: pinned.join(','),
      CONTRACT_RUNS: String(runs),
      CONTRACT_ALLOW_SKIPS: allowSkips ? '1' : '0',
      CONTRACT_COVERAGE_FILE: join(reportDir, 'observed.jsonl'),
    }).filter(([, value]) => value !== undefined),
  );
  const scrub = scrubberOf([process.env.API_TOKEN, suiteEnv.CONTRACT_TOKEN]);
  const write = (file, text) => writeFileSync(join(reportDir, file), scrub(text));
  const summary = { target: mode, seed, pinned, runs, allowSkips };

  const check = await preflight({
    baseUrl: suiteEnv.CONTRACT_DIRECT_URL ?? suiteEnv.CONTRACT_BASE_URL,
    token: suiteEnv.CONTRACT_TOKEN,
  });
  if (!check.ok) {
    console.error(`[contract] ${check.message}`);
    const cases = [{ file: 'preflight', name: 'preflight', status: 'failed', message: check.message }];
    write('junit.xml', junitXml(cases, `contract ${mode}`));
    const counts = countCases(cases);
    write(
      'summary.json',
      `${JSON.stringify({ ...summary, ...counts, exitCode: 1, preflight: check.message }, null, 2)}\n`,
    );
    return { lines: [`  ${check.message}`], counts, problems: ['preflight refused'], reportDir };
  }

  // vitest writes its report outside the reports folder: only the scrubbed copy lands there.
  const rawDir = mkdtempSync(join(tmpdir(), 'contract-report-'));
  const rawReport = join(rawDir, 'report.json');
  const code = await runVitest(suiteEnv, rawReport, vitestArgs, scrub);
  let report;
  if (existsSync(rawReport)) {
    const text = scrub(readFileSync(rawReport, 'utf8'));
    write('report.json', text);
    report = JSON.parse(text);
  }
  rmSync(rawDir, { recursive: true, force: true });
  const analysis = analyseReport(report, { mode, allowSkips, root: APP_DIR });
  const counts = countCases(analysis.cases);
  write('junit.xml', junitXml(analysis.cases, `contract ${mode}`));

  const problems = code !== 0 && counts.failed === 0 ? [`vitest exited with ${code}`] : [];
  const observed = existsSync(suiteEnv.CONTRACT_COVERAGE_FILE)
    ? readFileSync(suiteEnv.CONTRACT_COVERAGE_FILE, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  const missing = missingCoverage(loadOpenApiDocument(), observed);
  let coverage = 'every documented operation and status exercised';
  if (vitestArgs.some((a) => !a.startsWith('--') || a.startsWith('--shard'))) {
    coverage = 'not checked on part of the cases (a shard or a file filter)';
  } else if (missing.length > 0 && mode === 'mock') {
    problems.push(`coverage: ${missing.length} documented operation status(es) never exercised`);
    coverage = `FAILED, documented but never exercised: ${missing.join(', ')}`;
  } else if (missing.length > 0) {
    coverage = `not exercised on this target (the mock's Prefer cases, cases not run): ${missing.join(', ')}`;
  }
  const exitCode = counts.failed > 0 || problems.length > 0 ? 1 : 0;
  const { operations, notRun, unset } = analysis;
  const details = { operations, notRun, unsetVariables: unset, coverage, missing };
  write('summary.json', `${JSON.stringify({ ...summary, ...counts, exitCode, ...details }, null, 2)}\n`);
  const lines = [...summaryLines(analysis), `  coverage: ${coverage}`, `  ${verdictLine(counts, problems)}`];
  return { lines, counts, problems, reportDir };
}

let exitCode = 0;
const summaries = [];
const totals = { passed: 0, failed: 0, notApplicable: 0, skipped: 0 };
const problems = [];
try {
  const { targets, vitestArgs, allowSkips } = parseArgs(process.argv.slice(2));
  const seed = seedFromEnv();
  const pinned = pinnedSeeds();
  const runs = runsFromEnv();
  console.log(
    `[contract] seed ${seed}${process.env.CONTRACT_SEED ? '' : ' (the fixed default; CONTRACT_SEED=random draws a fresh one)'}, pinned seeds: ${pinned.join(', ') || 'none'}; ${runs} generated cases per operation and kind (CONTRACT_RUNS)`,
  );
  console.log(
    allowSkips
      ? '[contract] --allow-skips: a case that cannot run (a variable not set, the target not ready) is skipped'
      : '[contract] a case that cannot run (a variable not set, the target not ready) fails the run; --allow-skips lets it be skipped',
  );
  for (const mode of targets) {
    const result = await runTarget(mode, { seed, pinned, runs, vitestArgs, allowSkips });
    await cleanup();
    summaries.push(`[contract] ${mode}: (reports in ${result.reportDir})`, ...result.lines);
    for (const key of Object.keys(totals)) totals[key] += result.counts[key];
    problems.push(...result.problems.map((p) => (targets.length > 1 ? `${mode}: ${p}` : p)));
  }
  summaries.push(
    `[contract] seed ${seed}: rerun the same cases with CONTRACT_SEED=${seed}; pin it in apps/contract-tests/pinned-seeds.json if it found a bug`,
  );
} catch (error) {
  problems.push(error instanceof Error ? error.message : String(error));
} finally {
  await cleanup();
}
exitCode = totals.failed > 0 || problems.length > 0 ? 1 : 0;
console.log(`\n${summaries.join('\n')}`);
console.log(verdictLine(totals, problems));
process.exit(exitCode);
