#!/usr/bin/env node
// The runtime matrix (see its README). `--write-readme` writes the client README's "Runtimes" table.
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { TOOL_DEFINITIONS } from '@browser-cloud/mcp';
import {
  DEFAULT_FIXTURE,
  DEFAULT_FIXTURE_REFS as R,
  flowTypesOf,
  loadSandboxDocument,
  startSandbox,
} from '@browser-cloud/sandbox';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { build, context } from 'esbuild';
import { chromium } from 'playwright-core';
import semver from 'semver';
import { runtimesStamp } from '@browser-cloud/tooling/runtimes-stamp';
import { installPacked, publishablePackages } from '@browser-cloud/tooling/workspaces';

const APP = fileURLToPath(new URL('..', import.meta.url));
const REPO = join(APP, '../..');
const RUNTIMES = join(APP, 'runtimes');
const README = join(REPO, 'packages/client/README.md');
/** The published packages' `engines.node` (the client's; the others must agree): exactly the Node lines run here. */
const ENGINES_NODE = JSON.parse(readFileSync(join(REPO, 'packages/client/package.json'), 'utf8')).engines.node;
/** A Worker's compatibility date: one the pinned workerd supports. */
const WORKER_COMPATIBILITY_DATE = '2026-07-01';
/** Bound of any one child process or part: a hang fails, never blocks CI. */
const TIMEOUT_MS = 180_000;
const PARTS = ['client', 'cli', 'mcp'];
const execFileAsync = promisify(execFile);

const lastLines = (text, count = 6) => String(text).trim().split('\n').slice(-count).join(' / ');
const readJson = (...path) => JSON.parse(readFileSync(join(...path), 'utf8'));
const lastJsonLine = ({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1));

async function sh(command, args, env = { ...process.env, NO_COLOR: '1' }) {
  try {
    return await execFileAsync(command, args, { cwd: project, env, maxBuffer: 32 * 1024 * 1024, timeout: TIMEOUT_MS });
  } catch (error) {
    const { stdout = '', stderr = '' } = error;
    throw new Error(`${command} ${args.join(' ').slice(0, 200)} failed: ${lastLines(`${stderr}\n${stdout}`)}`);
  }
}

/** `npm ci --ignore-scripts` of runtimes/, skipped when node_modules matches the lock already; the error, if any. */
function installRuntimes() {
  const { path: stamp, digest } = runtimesStamp(RUNTIMES);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return undefined;
  const started = Date.now();
  // No install scripts: every binary comes from a platform package (see runtimes/package.json).
  const npm = spawnSync(
    'npm',
    ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    { cwd: RUNTIMES, encoding: 'utf8', timeout: TIMEOUT_MS * 2 },
  );
  if (npm.status !== 0) return `npm ci in apps/runtime-matrix/runtimes failed: ${lastLines(npm.stderr || npm.error)}`;
  writeFileSync(stamp, digest);
  const { stdout } = spawnSync('du', ['-sm', join(RUNTIMES, 'node_modules')], { encoding: 'utf8' });
  const took = `${((Date.now() - started) / 1000).toFixed(0)} s, ${Number.parseInt(stdout, 10)} MB on disk`;
  console.log(`Installed the runtimes (npm ci in apps/runtime-matrix/runtimes) in ${took}`);
}

// What the consumer must see, from the sandbox's fixture.

const MAIN_LINES = DEFAULT_FIXTURE.browsers
  .find((browser) => browser.id === R.browsers.main.id)
  .logs.find((log) => log.source === 'path' && log.path === R.browsers.main.path)
  .lines.map((line) => (typeof line === 'string' ? line : line.message));
const NAME = 'matrix-consumer';
const consumerInput = (baseUrl) => ({ baseUrl, refs: R, name: NAME });
const EXPECTED = {
  flowType: flowTypesOf(loadSandboxDocument()).login,
  renamed: NAME,
  conflict: { name: 'ConflictError', status: 409, code: 'conflict', requestId: true },
  read: MAIN_LINES,
  resumed: MAIN_LINES.slice(1),
  // The sandbox's event IDs are its own (unique across restarts): checked for what the stream
  // promises, one per event, all different, and a resume that starts after the first.
  resumedAfterFirst: true,
  validation: { name: 'ValidationError', field: 'body.name', rule: 'minLength', requestsSent: 0 },
  abortedCall: 'APIUserAbortError',
  abortedStream: 'ended',
};

/** Throws naming the first field where the consumer's result differs from the expectation. */
function checkConsumerResult(result) {
  const ids = result.read?.map((event) => event.id) ?? [];
  const actual = {
    ...result,
    read: result.read?.map((event) => event.message),
    resumed: result.resumed?.map((event) => event.message),
    resumedAfterFirst:
      ids.every((id) => typeof id === 'string' && id !== '') &&
      new Set(ids).size === ids.length &&
      isDeepStrictEqual(result.resumed, result.read?.slice(1)),
  };
  for (const [key, value] of Object.entries(EXPECTED)) {
    if (!isDeepStrictEqual(actual[key], value)) {
      throw new Error(`${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(actual[key])}`);
    }
  }
}

/** The consumer as a program of `binary` (Node, Bun, Deno): the input in argv, the result on stdout. */
const consumerProgram = (args) => async (binary, baseUrl) =>
  lastJsonLine(await sh(binary, [...args, 'node-main.mjs', JSON.stringify(consumerInput(baseUrl))]));

/** The consumer as a Worker: bundled by esbuild (as wrangler would), run by workerd in miniflare under Node 24. */
async function consumerWorker(node24, baseUrl) {
  const outfile = join(project, 'worker.bundle.mjs');
  await build({
    entryPoints: [join(project, 'worker.mjs')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'error',
  });
  const host = [join(RUNTIMES, 'workerd-host.mjs'), outfile, JSON.stringify(consumerInput(baseUrl))];
  const answer = lastJsonLine(await sh(node24, [...host, WORKER_COMPATIBILITY_DATE]));
  if (answer.error) throw new Error(`the Worker threw: ${answer.error}`);
  return answer.result;
}

/**
 * The project's files served as they are, for the page (esbuild bundles nothing without entry points).
 * Playwright cannot route them in: Chromium lets only a page that is itself on loopback reach the sandbox there.
 */
async function serveFiles() {
  const server = await context({ logLevel: 'error' });
  const { port } = await server.serve({ servedir: project, host: '127.0.0.1' });
  return { origin: `http://127.0.0.1:${port}`, close: () => server.dispose() };
}

/** Bare specifiers of the client and its dependencies, mapped to the installed files by their `exports`. */
function importMap() {
  const client = '@browser-cloud/client';
  const { dependencies = {} } = readJson(project, 'node_modules', client, 'package.json');
  const imports = {};
  for (const name of [client, ...Object.keys(dependencies)]) {
    const manifest = readJson(project, 'node_modules', name, 'package.json');
    for (const [subpath, target] of Object.entries(manifest.exports ?? { '.': manifest.module ?? manifest.main })) {
      const file = typeof target === 'string' ? target : (target.import ?? target.default);
      if (typeof file !== 'string') continue;
      imports[subpath === '.' ? name : `${name}/${subpath.slice(2)}`] =
        `/node_modules/${name}/${file.replace(/^\.\//, '')}`;
    }
  }
  return imports;
}

/** The consumer as an ES module page in headless Chromium: an import map, no bundler; the sandbox allows its origin. */
async function consumerPage(executablePath, baseUrl) {
  const head = `<script type="importmap">${JSON.stringify({ imports: importMap() })}</script>`;
  writeFileSync(join(project, 'index.html'), `<!doctype html><meta charset="utf-8"><title>matrix</title>\n${head}\n`);
  // Playwright adds the switches of a quiet headless run (no sandbox, no background networking…).
  const browser = await chromium.launch({ executablePath, args: ['--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${pages.origin}/index.html`);
    const run = async (input) => (await import('/consumer.mjs')).run(input);
    const result = await page.evaluate(run, consumerInput(baseUrl));
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
    return result;
  } finally {
    await browser.close();
  }
}

/** The CLI renames (JSON out) and refuses a bad name before the network (exit 2). */
async function cliSmoke(binary, baseUrl) {
  const env = { ...process.env, NO_COLOR: '1', BROWSER_CLOUD_BASE_URL: baseUrl, BROWSER_CLOUD_API_KEY: R.tokens.owner };
  const bin = join(project, 'node_modules/@browser-cloud/cli/dist/bin.js');
  const rename = (name, ...flags) => [bin, 'profiles', 'rename', R.profiles.unnamed.id, name, ...flags];
  const { stdout } = await sh(binary, rename('matrix-cli', '--json'), env);
  if (JSON.parse(stdout).name !== 'matrix-cli') throw new Error(`the CLI's rename printed ${stdout}`);
  const options = { cwd: project, env, timeout: TIMEOUT_MS };
  const refused = await execFileAsync(binary, rename('x'.repeat(256)), options).catch((error) => error);
  if (refused.code !== 2 || !/name/.test(refused.stderr ?? '')) {
    throw new Error(`the CLI's refusal of a 256-character name: exit ${refused.code}, ${refused.stderr}`);
  }
}

/** The MCP server over stdio, driven as a host drives it: its tools (one per operation), a rename. */
async function mcpSmoke(binary, baseUrl) {
  const client = new Client({ name: 'runtime-matrix', version: '0.0.0' });
  // The server's stderr (what it says went wrong, if anything) passes through to the run's.
  const env = { ...process.env, BROWSER_CLOUD_BASE_URL: baseUrl, BROWSER_CLOUD_API_KEY: R.tokens.owner };
  const args = [join(project, 'node_modules/@browser-cloud/mcp/dist/bin.js')];
  try {
    await client.connect(new StdioClientTransport({ command: binary, args, cwd: project, env }));
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    if (!isDeepStrictEqual(tools, Object.keys(TOOL_DEFINITIONS).sort())) {
      throw new Error(`the MCP server lists ${JSON.stringify(tools)}`);
    }
    const renamed = { id_or_name: R.profiles.unnamed.id, name: 'matrix-mcp' };
    const call = await client.callTool({ name: 'rename_profile', arguments: renamed });
    if (call.isError || call.structuredContent?.name !== 'matrix-mcp') {
      throw new Error(`the MCP server's rename_profile answered ${JSON.stringify(call)}`);
    }
  } finally {
    await client.close();
  }
}

// The matrix: a row per runtime, run one after another (the machine is shared with the rest of
// `npm test`), each part against a sandbox of its own.

const { platform: OS, arch: ARCH } = process;
const installed = (...path) => join(RUNTIMES, 'node_modules', ...path);
const npmNode = (major) => installed(`node${major}-${OS}-${ARCH}`, 'bin', 'node');
const NPM_NODE = '`node` (npm `node-<os>-<arch>`)';
const TOOLS = { cli: cliSmoke, mcp: mcpSmoke };

/**
 * Each row: its `binary` (from runtimes/package.json when `fromNpm`), or why it is `unavailable`;
 * what runs on it (`client`, by default the consumer as a program; `cli`, `mcp`). The line prints
 * the exact version (`--version`, or `exact`); the README the one the repo pins (`version` of it).
 */
function matrix() {
  const bunPlatform = `${OS === 'win32' ? 'windows' : OS}-${ARCH === 'arm64' ? 'aarch64' : ARCH}`;
  const bun = installed('@oven', `bun-${bunPlatform}`, 'bin', 'bun');
  const ensure = join(REPO, 'scripts/ensure-chromium.mjs');
  const chromiumCheck = spawnSync(process.execPath, [ensure], { encoding: 'utf8', timeout: TIMEOUT_MS * 2 });
  return [
    {
      runtime: 'Node.js 20',
      how: "`node` (the machine's)",
      nodeMajor: 20,
      binary: process.execPath,
      unavailable: !process.version.startsWith('v20.') && `the machine's Node is ${process.version}`,
      version: () => '20.x',
      ...TOOLS,
    },
    { runtime: 'Node.js 22', how: NPM_NODE, nodeMajor: 22, fromNpm: true, binary: npmNode(22), ...TOOLS },
    { runtime: 'Node.js 24', how: NPM_NODE, nodeMajor: 24, fromNpm: true, binary: npmNode(24), ...TOOLS },
    { runtime: 'Bun', how: '`bun` (npm `bun`)', fromNpm: true, binary: bun, ...TOOLS },
    {
      runtime: 'Deno',
      how: '`deno run -A` (npm `deno`)',
      fromNpm: true,
      binary: installed('@deno', OS === 'linux' ? `linux-${ARCH}-glibc` : `${OS}-${ARCH}`, 'deno'),
      version: (exact) => exact.replace('deno ', ''),
      client: consumerProgram(['run', '-A']),
    },
    {
      runtime: 'Cloudflare workerd',
      how: 'a Worker (esbuild bundle) in miniflare',
      fromNpm: true,
      binary: npmNode(24), // Miniflare 4 needs Node 22 or later.
      exact: () => `workerd ${readJson(installed('workerd', 'package.json')).version}`,
      client: consumerWorker,
    },
    {
      runtime: 'Chromium (headless)',
      how: 'an ES module page, import map, no bundler',
      binary: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      unavailable: chromiumCheck.status !== 0 && lastLines(chromiumCheck.stderr || chromiumCheck.error),
      version: () => 'Debian `chromium`',
      sandbox: { corsOrigins: [pages.origin] },
      client: consumerPage,
    },
  ];
}

/** Runs one row and prints its line; never throws. */
async function runRow(row) {
  const started = Date.now();
  const unavailable =
    row.unavailable ||
    (row.fromNpm && installError) ||
    (!existsSync(row.binary) && `${row.binary} is not installed (no build for ${OS}-${ARCH}?)`);
  if (unavailable) {
    say('UNAVAILABLE', row.runtime, unavailable);
    return { row, status: 'UNAVAILABLE', parts: {} };
  }
  // `--version`'s first two words: `v22.23.3`, `deno 2.9.6`, `Chromium 156.0.8078.108`.
  const { stdout } = spawnSync(row.binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  const exact = row.exact?.() ?? stdout.split(/\s+/).slice(0, 2).join(' ').trim();
  const parts = {};
  const failures = [];
  for (const part of PARTS.filter((p) => p === 'client' || row[p])) {
    const sandbox = await startSandbox({ port: 0, quiet: true, ...row.sandbox });
    const late = delay(TIMEOUT_MS, undefined, { ref: false }).then(() => {
      throw new Error(`${row.runtime} ${part} did not finish within ${TIMEOUT_MS / 1000} s`);
    });
    try {
      const outcome = await Promise.race([(row[part] ?? consumerProgram([]))(row.binary, sandbox.url), late]);
      if (part === 'client') checkConsumerResult(outcome);
      parts[part] = 'pass';
    } catch (error) {
      parts[part] = 'fail';
      failures.push(`${part}: ${lastLines(error instanceof Error ? error.message : String(error))}`);
    } finally {
      await sandbox.close();
    }
  }
  const status = failures.length === 0 ? 'PASS' : 'FAIL';
  const ran = Object.entries(parts).map((entry) => entry.join(' '));
  const why = failures.length > 0 ? `: ${failures.join(' | ')}` : '';
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  say(status, row.runtime, `${exact.padEnd(22)} ${ran.join(', ')} (${seconds} s)${why}`);
  return { row, status, parts, version: row.version?.(exact) ?? exact.replace(/^v/, '') };
}

/**
 * Every package says `ENGINES_NODE`, which claims exactly the Node lines that passed here (no
 * more, unproven; no fewer), and every production dependency accepts it.
 */
function checkEngines(results) {
  const problems = [];
  for (const name of publishablePackages(REPO)) {
    const engines = readJson(project, 'node_modules', name, 'package.json').engines?.node;
    if (engines !== ENGINES_NODE)
      problems.push(`${name} says engines.node ${JSON.stringify(engines)}, not "${ENGINES_NODE}"`);
  }
  const claimed = [...Array(100).keys()].filter((major) => semver.intersects(ENGINES_NODE, `${major}.x`));
  const proven = results.filter((r) => r.row.nodeMajor && r.status === 'PASS').map((r) => r.row.nodeMajor);
  if (!isDeepStrictEqual(claimed, proven)) {
    problems.push(
      `"${ENGINES_NODE}" claims Node ${claimed.join(', ')}, the matrix passed on Node ${proven.join(', ')}`,
    );
  }
  const dependencies = Object.entries(readJson(project, 'package-lock.json').packages).filter(
    ([path, entry]) => path && typeof entry.engines?.node === 'string',
  );
  for (const [path, { engines }] of dependencies) {
    if (!semver.subset(ENGINES_NODE, engines.node))
      problems.push(`${path.replace(/^.*node_modules\//, '')} wants node ${engines.node}`);
  }
  if (problems.length > 0) return say('FAIL', 'engines', problems.join('; '));
  const accepted = `all ${dependencies.length} production dependencies with engines.node accept it`;
  say('PASS', 'engines', `"${ENGINES_NODE}" is Node ${proven.join(', ')}, as run here, and ${accepted}`);
}

/** The README's "Runtimes" table of this run, checked against the README, or written there. */
function checkOrWriteReadme(results) {
  const cell = ({ row, status, parts }, part) => {
    if (part !== 'client' && !row[part]) return '–';
    if (status === 'UNAVAILABLE') return 'not installed';
    return parts[part] === 'pass' ? 'passes' : 'FAILS';
  };
  const rows = [
    ['runtime', 'version', 'how the consumer runs', 'client', 'CLI', 'MCP server'],
    ...results.map((result) => [
      result.row.runtime,
      result.status === 'UNAVAILABLE' ? 'not installed' : result.version,
      result.row.how,
      ...PARTS.map((part) => cell(result, part)),
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row) => `| ${row.map((value, column) => value.padEnd(widths[column])).join(' | ')} |`;
  const table = [line(rows[0]), line(widths.map((width) => '-'.repeat(width))), ...rows.slice(1).map(line)].join('\n');
  const block = /(<!-- runtime-matrix:begin.*?-->).*?(<!-- runtime-matrix:end -->)/s;
  const text = readFileSync(README, 'utf8');
  const written = text.replace(block, (_, begin, end) => `${begin}\n\n${table}\n\n${end}`);
  const writing = process.argv.includes('--write-readme');
  if (!block.test(text)) return say('FAIL', 'README table', 'packages/client/README.md has no runtime-matrix block');
  if (writing) writeFileSync(README, written);
  else if (written !== text) {
    const why = 'the "Runtimes" table of packages/client/README.md does not match this run; it should read';
    return say('FAIL', 'README table', `${why}:\n${table}`);
  }
  say('PASS', 'README table', writing ? 'written' : 'matches this run');
}

const started = Date.now();
let failed = false;
function say(status, what, text) {
  failed ||= status !== 'PASS';
  console.log(`${status.padEnd(11)} ${what.padEnd(20)} ${text}`);
}
const installError = installRuntimes();
// The packages packed as `npm run pack` packs them (turbo built them), installed into a fresh project.
const project = mkdtempSync(join(tmpdir(), 'browser-cloud-matrix-'));
installPacked(REPO, project);
cpSync(join(APP, 'consumer'), project, { recursive: true });
const pages = await serveFiles();
try {
  console.log(`Runtime matrix: the packed packages in ${project}, each runtime against a sandbox of its own`);
  const results = [];
  for (const row of matrix()) results.push(await runRow(row));
  checkEngines(results);
  checkOrWriteReadme(results);
} finally {
  await pages.close();
  rmSync(project, { recursive: true, force: true });
}
console.log(`Runtime matrix: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);
