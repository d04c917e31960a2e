#!/usr/bin/env node
// Runs the contract suite on each target (README): `--target <name>` (repeatable), `--allow-skips`,
// and anything else for vitest (files, --shard).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { JSON_REPORTER } from '@browser-cloud/tooling/test-reports';
import { coverageOf } from './coverage.mjs';
import { deleteLeftovers, leftovers, noteCreated } from './created-resources.mjs';
import { preflight } from './preflight.mjs';
import { analyseReport, countCases, junitXml, summaryLines, verdictLine } from './reports.mjs';
import { pinnedSeeds, runsFromEnv, seedFromEnv } from './seeds.mjs';
import { prepareTarget } from './targets.mjs';

const APP_DIR = join(import.meta.dirname, '..');
const REPORTS_DIR = process.env.CONTRACT_REPORTS_DIR || join(APP_DIR, 'reports');
const VITEST = join(APP_DIR, '../../node_modules/.bin/vitest');

function parseArgs(argv) {
  const targets = [];
  const vitestArgs = [];
  let allowSkips = ['1', 'true'].includes(process.env.CONTRACT_ALLOW_SKIPS ?? '');
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

/** Every configured token, as written and JSON-escaped, replaced: a server may echo it into any answer. */
function scrubberOf(tokens) {
  const forms = [...new Set(tokens.filter(Boolean).flatMap((t) => [t, JSON.stringify(t).slice(1, -1)]))];
  return (text) => forms.reduce((out, form) => out.replaceAll(form, '[token]'), text);
}

const cleanups = [];
async function cleanup() {
  for (const stop of cleanups.splice(0).reverse())
    await stop().catch((error) => console.error(`[contract] ${error.message}`));
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    console.error(`\n[contract] ${signal}: stopping servers`);
    await cleanup();
    process.exit(130);
  });
}

/** vitest's output (a pipe, so whole lines), scrubbed line by line: a token never spans lines. */
const forward = (from, to, scrub) =>
  createInterface({ input: from }).on('line', (line) => to.write(`${scrub(line)}\n`));

/**
 * vitest on the target; its JSON report (scrubbed), or undefined when it wrote none, and its exit
 * code. `keptAs` is where the scrubbed copy is kept: vitest's line naming its own report names it.
 */
async function runVitest(env, vitestArgs, scrub, keptAs) {
  // vitest writes its report outside the reports folder: only the scrubbed copy lands there. The
  // raw one is removed after the run, so that the output never names it.
  const rawDir = mkdtempSync(join(tmpdir(), 'contract-report-'));
  const rawReport = join(rawDir, 'report.json');
  const named = (line) => scrub(line).replaceAll(rawReport, keptAs);
  // vitest's JSON report, with a timeout's own message (JSON_REPORTER): `npm test`'s summary reads it.
  const args = [
    'run',
    '--reporter=default',
    `--reporter=${JSON_REPORTER}`,
    `--outputFile.json=${rawReport}`,
    ...vitestArgs,
  ];
  const colour = process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {};
  const child = spawn(VITEST, args, {
    cwd: APP_DIR,
    env: { ...process.env, ...colour, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  forward(child.stdout, process.stdout, named);
  forward(child.stderr, process.stderr, named);
  const code = await new Promise((resolve) => child.on('close', (exit) => resolve(exit ?? 1)));
  const report = existsSync(rawReport) ? scrub(readFileSync(rawReport, 'utf8')) : undefined;
  rmSync(rawDir, { recursive: true, force: true });
  return { code, report };
}

/** The cases of the run on one target, what else failed it, and what its summary adds. */
async function runSuite(mode, env, { vitestArgs, allowSkips }, write, scrub, reportDir) {
  const baseUrl = env.CONTRACT_DIRECT_URL ?? env.CONTRACT_BASE_URL;
  const check = await preflight({ baseUrl, token: env.CONTRACT_TOKEN });
  if (!check.ok) {
    const { message } = check;
    console.error(`[contract] ${message}`);
    const cases = [{ file: 'preflight', name: 'preflight', status: 'failed', message }];
    return { cases, problems: ['preflight refused'], details: { preflight: message }, lines: [`  ${message}`] };
  }
  const { code, report } = await runVitest(env, vitestArgs, scrub, join(reportDir, 'report.json'));
  if (report) write('report.json', report);
  const analysis = analyseReport(report && JSON.parse(report), { mode, allowSkips, root: APP_DIR });
  const problems =
    code !== 0 && !analysis.cases.some((c) => c.status === 'failed') ? [`vitest exited with ${code}`] : [];
  const partial = vitestArgs.some((a) => !a.startsWith('--') || a.startsWith('--shard'));
  const { coverage, missing, problem } = coverageOf(env.CONTRACT_COVERAGE_FILE, { mode, partial });
  if (problem) problems.push(problem);
  const { operations, cases, notRun, unset } = analysis;
  const details = { operations, notRun, unsetVariables: unset, coverage, missing };
  return { cases, problems, details, lines: [...summaryLines(analysis), `  coverage: ${coverage}`] };
}

/** One target: its reports (junit.xml and summary.json, whatever stopped the run), its summary lines and counts. */
async function runTarget(mode, { seed, pinned, runs, vitestArgs, allowSkips }) {
  const reportDir = join(REPORTS_DIR, mode);
  const ledger = join(reportDir, 'created.jsonl');
  // What a run that stopped half-way created and did not delete, carried into this run's ledger.
  const previous = leftovers(ledger);
  rmSync(reportDir, { recursive: true, force: true });
  mkdirSync(reportDir, { recursive: true });
  const { describe, ...env } = await prepareTarget(mode, cleanups);
  console.log(`\n[contract] target ${mode}: ${describe}`);
  const server = { baseUrl: env.CONTRACT_DIRECT_URL ?? env.CONTRACT_BASE_URL, token: env.CONTRACT_TOKEN };
  // Of another server (a sandbox of its own, gone with its run), they cannot be deleted here.
  for (const { removal } of previous.filter(({ at }) => at === server.baseUrl))
    noteCreated(ledger, server.baseUrl, removal);
  const sweep = async () => deleteLeftovers(ledger, leftovers(ledger), server);
  if (leftovers(ledger).length > 0) {
    const left = await sweep();
    console.log(
      `[contract] deleted what an earlier run created and left${left.length ? `, but: ${left.join('; ')}` : ''}`,
    );
  }
  // Also on SIGINT, before the target's servers stop.
  cleanups.push(async () => void (await sweep()));
  // A variable the target leaves undefined is not passed on (nor taken from this process).
  const suiteEnv = {
    CONTRACT_MODE: mode,
    ...env,
    CONTRACT_SEED: String(seed),
    CONTRACT_PINNED_SEEDS: pinned.join(','),
    CONTRACT_RUNS: String(runs),
    CONTRACT_ALLOW_SKIPS: allowSkips ? '1' : '0',
    CONTRACT_COVERAGE_FILE: join(reportDir, 'observed.jsonl'),
    CONTRACT_CREATED_FILE: ledger,
  };
  const scrub = scrubberOf([process.env.API_TOKEN, suiteEnv.CONTRACT_TOKEN]);
  const write = (file, text) => writeFileSync(join(reportDir, file), scrub(text));
  const options = { vitestArgs, allowSkips };
  const { cases, problems, details, lines } = await runSuite(mode, suiteEnv, options, write, scrub, reportDir);
  // What the cases created and their case files did not delete (vitest stopped before their afterAll).
  const left = await sweep();
  if (left.length > 0) problems.push(`created by the run and left on the target: ${left.join('; ')}`);
  const counts = countCases(cases);
  const exitCode = counts.failed > 0 || counts.notRun > 0 || problems.length > 0 ? 1 : 0;
  write('junit.xml', junitXml(cases, `contract ${mode}`));
  const summary = { target: mode, seed, pinned, runs, allowSkips, ...counts, exitCode, ...details };
  write('summary.json', `${JSON.stringify(summary, null, 2)}\n`);
  return { lines: [...lines, `  ${verdictLine(counts, problems)}`], counts, problems, reportDir };
}

const summaries = [];
const totals = { passed: 0, failed: 0, notRun: 0, notApplicable: 0, skipped: 0 };
const problems = [];
try {
  const { targets, vitestArgs, allowSkips } = parseArgs(process.argv.slice(2));
  const [seed, pinned, runs] = [seedFromEnv(), pinnedSeeds(), runsFromEnv()];
  const fixed = process.env.CONTRACT_SEED ? '' : ' (the fixed default; CONTRACT_SEED=random draws a fresh one)';
  const perOperation = `${runs} generated cases per operation and kind (CONTRACT_RUNS)`;
  console.log(`[contract] seed ${seed}${fixed}, pinned seeds: ${pinned.join(', ') || 'none'}; ${perOperation}`);
  const skipping = allowSkips ? 'is skipped (--allow-skips)' : 'fails the run; --allow-skips lets it be skipped';
  console.log(`[contract] a case that cannot run (a variable not set, the target not ready) ${skipping}`);
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
console.log(`\n${summaries.join('\n')}`);
console.log(verdictLine(totals, problems));
process.exit(totals.failed > 0 || totals.notRun > 0 || problems.length > 0 ? 1 : 0);
