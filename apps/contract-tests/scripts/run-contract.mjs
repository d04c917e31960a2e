#!/usr/bin/env node
// Runs the contract suite against one or more targets and prints a summary per operation.
//
//   node scripts/run-contract.mjs                 # target from the environment (below), else the Prism mock
//   node scripts/run-contract.mjs --target mock --target sandbox --target live-sandbox
//   node scripts/run-contract.mjs --shard=1/3     # any other --option goes to vitest
//   node scripts/run-contract.mjs --require-all   # any skip but the target's inapplicable cases fails
//
// Environment: API_UPSTREAM_URL + API_TOKEN → Prism's validating proxy (--errors) in front of that
// server; API_BASE_URL + API_TOKEN → that server directly. The resources the cases may use come
// from CONTRACT_* variables (see README). CONTRACT_SEED and CONTRACT_RUNS steer the generated cases.
// CONTRACT_REQUIRE_ALL=1 is --require-all.
// Reports: reports/<target>/junit.xml, report.json and summary.json (CONTRACT_REPORTS_DIR for
// another place than reports/), kept after the run; a refused
// preflight writes junit.xml (one failed case, `preflight`) and summary.json too.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock, startPrism } from '@browser-cloud/mock';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { missingCoverage } from './coverage.mjs';
import { preflight } from './preflight.mjs';
import { analyseReport, junitXml, summaryLines } from './reports.mjs';
import { pinnedSeeds, seedFromEnv } from './seeds.mjs';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPORTS_DIR = process.env.CONTRACT_REPORTS_DIR || join(APP_DIR, 'reports');
const VITEST = fileURLToPath(new URL('../../../node_modules/.bin/vitest', import.meta.url));
const DEFAULT_RUNS = 20;

function parseArgs(argv) {
  const targets = [];
  const vitestArgs = [];
  let requireAll = ['1', 'true'].includes(process.env.CONTRACT_REQUIRE_ALL ?? '');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--require-all') requireAll = true;
    else if (argv[i] === '--target') targets.push(argv[++i]);
    else if (argv[i].startsWith('--target=')) targets.push(argv[i].slice('--target='.length));
    else if (argv[i] === '--') continue;
    else if (argv[i].startsWith('--')) vitestArgs.push(argv[i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (targets.length === 0) {
    if (process.env.API_UPSTREAM_URL) targets.push('proxy');
    else if (process.env.API_BASE_URL) targets.push('server');
    else targets.push('mock');
  }
  return { targets, vitestArgs, requireAll };
}

function requireEnv(name, mode) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set for the ${mode} target`);
  return value;
}

function runsFromEnv() {
  const raw = process.env.CONTRACT_RUNS;
  if (raw === undefined || raw === '') return DEFAULT_RUNS;
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`CONTRACT_RUNS must be a positive integer, got "${raw}"`);
  return runs;
}

const cleanups = [];
async function cleanup() {
  while (cleanups.length > 0)
    await cleanups
      .pop()()
      .catch(() => {});
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    console.error(`\n[contract] ${signal}: stopping servers`);
    await cleanup();
    process.exit(130);
  });
}

/** The sandbox's fixture ids, passed the way a user passes a real server's resources. */
function sandboxResources(refs) {
  return {
    CONTRACT_CONNECTION_ID: refs.authConnections.withoutCredentials,
    CONTRACT_REAUTH_CONNECTION_ID: refs.authConnections.withCredentials,
    CONTRACT_PROFILE_ID: refs.profiles.defaultProject.id,
    CONTRACT_PROFILE_NAME: refs.profiles.defaultProject.name,
    CONTRACT_TAKEN_PROFILE_NAME: refs.profiles.unscoped.name,
    CONTRACT_PROXY_ID: refs.proxies.datacenter.id,
    CONTRACT_PROXY_NAME: refs.proxies.datacenter.name,
    CONTRACT_BROWSER_ID: refs.browsers.main.id,
    CONTRACT_LOG_PATH: refs.browsers.main.path,
    CONTRACT_SUPERVISOR_PROCESS: refs.browsers.main.supervisorProcess,
  };
}

async function startSandboxServer() {
  const { startSandbox, DEFAULT_FIXTURE_REFS } = await import('@browser-cloud/sandbox');
  const sandbox = await startSandbox({ port: 0, quiet: true, retryMs: 50, keepAliveMs: 2_000 });
  cleanups.push(() => sandbox.close());
  return { sandbox, refs: DEFAULT_FIXTURE_REFS };
}

/** Starts what the target needs; returns the environment of the suite. */
async function prepare(mode) {
  if (mode === 'mock') {
    const mock = await startMock();
    cleanups.push(mock.close);
    return {
      CONTRACT_BASE_URL: mock.url,
      CONTRACT_TOKEN: 'contract-test-token',
      describe: `mock at ${mock.url} (validating front before Prism at ${mock.prismUrl})`,
    };
  }
  if (mode === 'server') {
    return {
      CONTRACT_BASE_URL: requireEnv('API_BASE_URL', mode).replace(/\/+$/, ''),
      CONTRACT_TOKEN: requireEnv('API_TOKEN', mode),
      describe: `server at ${process.env.API_BASE_URL}`,
    };
  }
  if (mode === 'proxy') {
    const upstream = requireEnv('API_UPSTREAM_URL', mode);
    const prism = await startPrism({ upstream });
    cleanups.push(prism.stop);
    return {
      CONTRACT_BASE_URL: prism.url,
      CONTRACT_DIRECT_URL: upstream.replace(/\/+$/, ''),
      CONTRACT_TOKEN: requireEnv('API_TOKEN', mode),
      describe: `Prism proxy at ${prism.url} → ${upstream}`,
    };
  }
  if (mode === 'live-sandbox') {
    // The sandbox as any live server: its fixture ids come in through the CONTRACT_* variables
    // and nothing else, so this target proves the live path end to end.
    const { sandbox, refs } = await startSandboxServer();
    return {
      ...sandboxResources(refs),
      CONTRACT_MODE: 'server',
      CONTRACT_BASE_URL: sandbox.url,
      CONTRACT_TOKEN: refs.tokens.owner,
      describe: `sandbox at ${sandbox.url} as a live server (ids from CONTRACT_* variables)`,
    };
  }
  if (mode === 'sandbox') {
    const { sandbox, refs } = await startSandboxServer();
    const prism = await startPrism({ upstream: sandbox.url });
    cleanups.push(prism.stop);
    return {
      ...sandboxResources(refs),
      CONTRACT_BASE_URL: prism.url,
      CONTRACT_DIRECT_URL: sandbox.url,
      CONTRACT_TOKEN: refs.tokens.owner,
      CONTRACT_SANDBOX: JSON.stringify({ refs, directUrl: sandbox.url }),
      describe: `sandbox at ${sandbox.url} behind Prism proxy ${prism.url}`,
    };
  }
  throw new Error(`unknown target "${mode}" (mock, sandbox, live-sandbox, server, proxy)`);
}

function runVitest(env, reportDir, vitestArgs) {
  return new Promise((resolve) => {
    const child = spawn(
      VITEST,
      [
        'run',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${join(reportDir, 'report.json')}`,
        ...vitestArgs,
      ],
      { cwd: APP_DIR, env: { ...process.env, ...env }, stdio: 'inherit' },
    );
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const document = loadOpenApiDocument();
let exitCode = 0;
const summaries = [];
const totals = { passed: 0, failed: 0 };
try {
  const { targets, vitestArgs, requireAll } = parseArgs(process.argv.slice(2));
  const sharded = vitestArgs.some((a) => a.startsWith('--shard'));
  const seed = seedFromEnv();
  const pinned = pinnedSeeds();
  const runs = runsFromEnv();
  console.log(
    `[contract] seed ${seed}${process.env.CONTRACT_SEED ? '' : ' (the fixed default; CONTRACT_SEED=random draws a fresh one)'}, pinned seeds: ${pinned.join(', ') || 'none'}; ${runs} generated cases per operation and kind (CONTRACT_RUNS)`,
  );
  if (requireAll) {
    console.log(
      '[contract] CONTRACT_REQUIRE_ALL: a skipped case fails the run (except cases that cannot apply to the target)',
    );
  }
  for (const mode of targets) {
    const reportDir = join(REPORTS_DIR, mode);
    rmSync(reportDir, { recursive: true, force: true });
    mkdirSync(reportDir, { recursive: true });
    const { describe, ...env } = await prepare(mode);
    console.log(`\n[contract] target ${mode}: ${describe}`);
    const suiteEnv = {
      CONTRACT_MODE: mode,
      ...env,
      CONTRACT_SEED: String(seed),
      CONTRACT_PINNED_SEEDS: pinned.join(','),
      CONTRACT_RUNS: String(runs),
      CONTRACT_COVERAGE_FILE: join(reportDir, 'observed.jsonl'),
    };
    const check = await preflight({
      baseUrl: suiteEnv.CONTRACT_DIRECT_URL ?? suiteEnv.CONTRACT_BASE_URL,
      token: suiteEnv.CONTRACT_TOKEN,
      browserId: suiteEnv.CONTRACT_BROWSER_ID ?? process.env.CONTRACT_BROWSER_ID,
    });
    if (!check.ok) {
      console.error(`[contract] ${check.message}`);
      summaries.push(`[contract] ${mode}: (reports in ${reportDir})`, `  ${check.message}`);
      writeFileSync(
        join(reportDir, 'junit.xml'),
        junitXml(
          [{ file: 'preflight', name: 'preflight', status: 'failed', message: check.message }],
          `contract ${mode}`,
        ),
      );
      writeFileSync(
        join(reportDir, 'summary.json'),
        `${JSON.stringify({ target: mode, seed, runs, requireAll, exitCode: 1, passed: 0, failed: 1, preflight: check.message, operations: {}, skipped: [], unsetVariables: {} }, null, 2)}\n`,
      );
      exitCode = 1;
      totals.failed++;
      await cleanup();
      continue;
    }
    const code = await runVitest(suiteEnv, reportDir, vitestArgs);
    const reportFile = join(reportDir, 'report.json');
    const analysis = analyseReport(existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined, {
      mode,
      requireAll,
      root: APP_DIR.replace(/\/$/, ''),
    });
    const { operations, cases, skips, unset } = analysis;
    const passed = cases.filter((c) => c.status === 'passed').length;
    const failed = cases.filter((c) => c.status === 'failed').length;
    const lines = summaryLines(analysis);
    writeFileSync(join(reportDir, 'junit.xml'), junitXml(cases, `contract ${mode}`));
    totals.passed += passed;
    totals.failed += failed;
    if (code !== 0 || failed > 0) exitCode = 1;

    const observed = existsSync(suiteEnv.CONTRACT_COVERAGE_FILE)
      ? readFileSync(suiteEnv.CONTRACT_COVERAGE_FILE, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
    const missing = missingCoverage(document, observed);
    let coverage;
    if (sharded) {
      coverage = 'not checked on a shard (each shard sees part of the cases)';
    } else if (mode === 'mock' && missing.length > 0) {
      exitCode = 1;
      totals.failed++;
      coverage = `FAILED, documented but never exercised: ${missing.join(', ')}`;
    } else if (missing.length > 0) {
      coverage = `not exercised on this target (the mock's Prefer cases, skipped cases): ${missing.join(', ')}`;
    } else {
      coverage = 'every documented operation and status exercised';
    }
    lines.push(`  coverage: ${coverage}`);
    writeFileSync(
      join(reportDir, 'summary.json'),
      `${JSON.stringify({ target: mode, seed, pinned, runs, requireAll, exitCode: code || (failed > 0 ? 1 : 0), passed, failed, operations, skipped: skips, unsetVariables: unset, coverage, missing }, null, 2)}\n`,
    );
    summaries.push(`[contract] ${mode}: (reports in ${reportDir})`, ...lines);
    await cleanup();
  }
  summaries.push(
    `[contract] seed ${seed}: rerun the same cases with CONTRACT_SEED=${seed}; pin it in apps/contract-tests/pinned-seeds.json if it found a bug`,
  );
} catch (error) {
  exitCode = 1;
  console.error(`[contract] ${error instanceof Error ? error.message : error}`);
} finally {
  await cleanup();
}
console.log(`\n${summaries.join('\n')}`);
console.log(`contract: ${totals.passed} passed, ${totals.failed + (exitCode && !totals.failed ? 1 : 0)} failed`);
process.exit(exitCode);
