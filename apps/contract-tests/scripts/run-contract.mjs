#!/usr/bin/env node
// Runs the contract suite against one or more targets and prints a summary per operation.
//
//   node scripts/run-contract.mjs                 # target from the environment (below), else the Prism mock
//   node scripts/run-contract.mjs --target mock --target sandbox
//
// Environment: API_UPSTREAM_URL + API_TOKEN → Prism's validating proxy (--errors) in front of that
// server; API_BASE_URL + API_TOKEN → that server directly. Cases that need Prism's Prefer header
// are skipped there, with the reason printed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock, startPrism } from '@browser-cloud/mock';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { missingCoverage } from './coverage.mjs';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../../../node_modules/.bin/vitest', import.meta.url));

function targetsFromArgs(argv) {
  const targets = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--target') targets.push(argv[++i]);
    else if (argv[i].startsWith('--target=')) targets.push(argv[i].slice('--target='.length));
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (targets.length > 0) return targets;
  if (process.env.API_UPSTREAM_URL) return ['proxy'];
  if (process.env.API_BASE_URL) return ['server'];
  return ['mock'];
}

function requireEnv(name, mode) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set for the ${mode} target`);
  return value;
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
  if (mode === 'sandbox') {
    const { startSandbox, DEFAULT_FIXTURE_REFS } = await import('@browser-cloud/sandbox');
    const sandbox = await startSandbox({ port: 0, quiet: true, retryMs: 50, keepAliveMs: 2_000 });
    cleanups.push(() => sandbox.close());
    const prism = await startPrism({ upstream: sandbox.url });
    cleanups.push(prism.stop);
    return {
      CONTRACT_BASE_URL: prism.url,
      CONTRACT_DIRECT_URL: sandbox.url,
      CONTRACT_TOKEN: DEFAULT_FIXTURE_REFS.tokens.owner,
      CONTRACT_SANDBOX: JSON.stringify({ refs: DEFAULT_FIXTURE_REFS, directUrl: sandbox.url }),
      describe: `sandbox at ${sandbox.url} behind Prism proxy ${prism.url}`,
    };
  }
  throw new Error(`unknown target "${mode}" (mock, sandbox, server, proxy)`);
}

function runVitest(env) {
  return new Promise((resolve) => {
    const child = spawn(
      VITEST,
      ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${env.CONTRACT_REPORT}`],
      {
        cwd: APP_DIR,
        env: { ...process.env, ...env },
        stdio: 'inherit',
      },
    );
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

function summarize(_mode, reportFile) {
  if (!existsSync(reportFile)) return { failed: 1, passed: 0, lines: ['  no report was written'] };
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const byOperation = new Map();
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      const operation = test.ancestorTitles[0] ?? file.name;
      const row = byOperation.get(operation) ?? { run: 0, passed: 0, failed: 0, skipped: 0 };
      if (test.status === 'passed') {
        row.run++;
        row.passed++;
      } else if (test.status === 'failed') {
        row.run++;
        row.failed++;
      } else row.skipped++;
      byOperation.set(operation, row);
    }
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      byOperation.set(file.name, { run: 1, passed: 0, failed: 1, skipped: 0 });
    }
  }
  let failed = 0;
  let passed = 0;
  const lines = [...byOperation].map(([operation, r]) => {
    failed += r.failed;
    passed += r.passed;
    return `  ${operation.padEnd(24)} ${String(r.run).padStart(3)} run ${String(r.passed).padStart(3)} passed ${String(r.failed).padStart(3)} failed${r.skipped ? ` ${r.skipped} skipped` : ''}`;
  });
  return { failed, passed, lines };
}

const document = loadOpenApiDocument();
let exitCode = 0;
const summaries = [];
const totals = { passed: 0, failed: 0 };
try {
  for (const mode of targetsFromArgs(process.argv.slice(2))) {
    const work = mkdtempSync(join(tmpdir(), 'contract-'));
    cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
    const { describe, ...env } = await prepare(mode);
    console.log(`\n[contract] target ${mode}: ${describe}`);
    const coverageFile = join(work, 'observed.jsonl');
    const reportFile = join(work, 'report.json');
    const code = await runVitest({
      ...env,
      CONTRACT_MODE: mode,
      CONTRACT_COVERAGE_FILE: coverageFile,
      CONTRACT_REPORT: reportFile,
    });
    const { failed, passed, lines } = summarize(mode, reportFile);
    totals.passed += passed;
    totals.failed += failed;
    if (code !== 0 || failed > 0) exitCode = 1;

    const observed = existsSync(coverageFile)
      ? readFileSync(coverageFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
    const missing = missingCoverage(document, observed);
    if (mode === 'mock' && missing.length > 0) {
      exitCode = 1;
      lines.push(`  coverage: FAILED, documented but never exercised: ${missing.join(', ')}`);
    } else if (missing.length > 0) {
      lines.push(`  coverage: not exercised on this target (mock-only cases): ${missing.join(', ')}`);
    } else {
      lines.push('  coverage: every documented operation and status exercised');
    }
    summaries.push(`[contract] ${mode}:`, ...lines);
    await cleanup();
  }
} catch (error) {
  exitCode = 1;
  console.error(`[contract] ${error instanceof Error ? error.message : error}`);
} finally {
  await cleanup();
}
console.log(`\n${summaries.join('\n')}`);
console.log(`contract: ${totals.passed} passed, ${totals.failed + (exitCode && !totals.failed ? 1 : 0)} failed`);
process.exit(exitCode);
