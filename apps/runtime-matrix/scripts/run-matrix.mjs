#!/usr/bin/env node
// The runtime matrix: the packed packages installed outside the repo, and one consumer program
// (consumer/consumer.mjs: login, a rename and its typed 409, a log stream read to its end and
// resumed from a Last-Event-ID, a ValidationError before any request, two aborts) run against a
// sandbox of its own on each runtime: the machine's Node 20; Node 22 and 24, Bun, Deno and
// workerd (the consumer as a Worker, through miniflare) installed from the npm registry by
// runtimes/package.json; headless Chromium (Debian's `chromium`, the consumer as an ES module
// page with an import map, no bundler). The CLI and the MCP server run on Node 20, 22, 24 and
// Bun. A check of the packages' `engines` against their production dependencies runs too.
//
// Prints one line per runtime (PASS, FAIL or UNAVAILABLE with the reason; only PASS passes),
// then checks the "Runtimes" table of packages/client/README.md against this run's results;
// `--write-readme` writes it instead. Exits 1 unless every line passed and the table matches.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
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
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import semver from 'semver';
import { installPacked, publishablePackages } from '../../../scripts/lib/workspaces.mjs';

const APP = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(APP, '../..');
const RUNTIMES = join(APP, 'runtimes');
const CONSUMER = join(APP, 'consumer');
const README = join(REPO, 'packages/client/README.md');
const PACKAGES = publishablePackages(REPO);
/**
 * What the published packages' `engines.node` says (the client's; the others must agree): it
 * must name exactly the Node lines this matrix runs.
 */
const ENGINES_NODE = JSON.parse(readFileSync(join(REPO, 'packages/client/package.json'), 'utf8')).engines.node;
/** A Worker's compatibility date: one the pinned workerd supports. */
const WORKER_COMPATIBILITY_DATE = '2026-07-01';
/** Bound of any one child process (an install, a runtime's run): a hang fails, never blocks CI. */
const CHILD_TIMEOUT_MS = 180_000;
/** Runtimes checked at once, each against its own sandbox. */
const CONCURRENCY = 3;
const writeReadme = process.argv.includes('--write-readme');
const execFileAsync = promisify(execFile);

// ---------------------------------------------------------------------------------------------
// Installing: the runtimes (runtimes/package-lock.json) and the packed packages.

/** `npm ci --ignore-scripts` of runtimes/, skipped when node_modules matches the lock already. */
function installRuntimes() {
  const lock = readFileSync(join(RUNTIMES, 'package-lock.json'));
  const stamp = join(RUNTIMES, 'node_modules', '.installed-lock-sha256');
  const digest = createHash('sha256').update(lock).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return undefined;
  const installStarted = Date.now();
  // No install scripts: every binary comes from a platform package (see runtimes/package.json).
  const npm = spawnSync(
    'npm',
    ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    { cwd: RUNTIMES, encoding: 'utf8', timeout: CHILD_TIMEOUT_MS * 2 },
  );
  if (npm.status !== 0) {
    return `npm ci in apps/runtime-matrix/runtimes failed: ${lastLines(`${npm.stderr ?? ''}${npm.error?.message ?? ''}`)}`;
  }
  writeFileSync(stamp, digest);
  const kilobytes = Number.parseInt(
    spawnSync('du', ['-sk', join(RUNTIMES, 'node_modules')], { encoding: 'utf8' }).stdout,
    10,
  );
  console.log(
    `Installed the runtimes (npm ci in apps/runtime-matrix/runtimes) in ${((Date.now() - installStarted) / 1000).toFixed(0)} s, ${Number.isNaN(kilobytes) ? '?' : Math.round(kilobytes / 1024)} MB on disk`,
  );
  return undefined;
}

/** The packages packed as `npm run pack` packs them (turbo built them), installed into a fresh project in tmp. */
function installPackages() {
  const project = mkdtempSync(join(tmpdir(), 'browser-cloud-matrix-'));
  installPacked(REPO, project);
  for (const file of readdirSync(CONSUMER)) copyFileSync(join(CONSUMER, file), join(project, file));
  return project;
}

// ---------------------------------------------------------------------------------------------
// The runtimes: where each binary is, or why there is none.

const OS = process.platform;
const ARCH = process.arch;
const installed = (...path) => join(RUNTIMES, 'node_modules', ...path);

function nodeBinary(major) {
  if (major === 20) {
    const machine = Number(process.versions.node.split('.')[0]);
    return machine === 20
      ? { path: process.execPath }
      : { unavailable: `the machine's Node is ${process.version}; Node 20 is run as the machine's node` };
  }
  const path = installed(`node${major}-${OS}-${ARCH}`, 'bin', 'node');
  return existsSync(path)
    ? { path }
    : {
        unavailable: `no Node ${major} build for ${OS}-${ARCH} in runtimes/package.json (the registry's node-${OS}-${ARCH})`,
      };
}

function bunBinary() {
  const path = installed(
    '@oven',
    `bun-${OS === 'win32' ? 'windows' : OS}-${ARCH === 'arm64' ? 'aarch64' : ARCH}`,
    'bin',
    'bun',
  );
  return existsSync(path) ? { path } : { unavailable: `no @oven/bun platform package for ${OS}-${ARCH} was installed` };
}

function denoBinary() {
  const name = OS === 'linux' ? `linux-${ARCH}-glibc` : `${OS}-${ARCH}`;
  const path = installed('@deno', name, 'deno');
  return existsSync(path) ? { path } : { unavailable: `no @deno/${name} platform package was installed` };
}

function chromiumBinary() {
  const ensure = spawnSync(process.execPath, [join(REPO, 'scripts/ensure-chromium.mjs')], {
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS * 2,
  });
  if (ensure.status !== 0)
    return { unavailable: lastLines(ensure.stderr || ensure.error?.message || 'ensure-chromium failed') };
  return { path: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium' };
}

function versionOf(binary, args = ['--version']) {
  const out = spawnSync(binary, args, { encoding: 'utf8', timeout: 30_000 });
  return (out.stdout ?? '').trim().split('\n')[0] ?? '';
}

// ---------------------------------------------------------------------------------------------
// What the consumer must see, from the sandbox's fixture.

const MAIN_LINES = DEFAULT_FIXTURE.browsers
  .find((browser) => browser.id === R.browsers.main.id)
  .logs.find((log) => log.source === 'path' && log.path === R.browsers.main.path)
  .lines.map((line) => (typeof line === 'string' ? line : line.message));

const consumerInput = (baseUrl) => ({
  baseUrl,
  token: R.tokens.owner,
  connectionId: R.authConnections.withoutCredentials,
  profileId: R.profiles.unnamed.id,
  otherProfileId: R.profiles.defaultProject.id,
  browserId: R.browsers.main.id,
  logPath: R.browsers.main.path,
  quietBrowserId: R.browsers.quiet.id,
  quietLogPath: R.browsers.quiet.path,
  name: 'matrix-consumer',
});

const EXPECTED = {
  flowType: flowTypesOf(loadSandboxDocument()).login,
  renamed: 'matrix-consumer',
  conflict: { name: 'ConflictError', status: 409, code: 'conflict', requestId: true },
  read: MAIN_LINES,
  resumed: MAIN_LINES.slice(1),
  // The sandbox's event IDs are its own (unique across restarts), so they are checked for what
  // the stream promises: one per event, all different, and a resume that starts after the first.
  resumedAfterFirst: true,
  validation: { name: 'ValidationError', field: 'body.name', rule: 'minLength', requestsSent: 0 },
  abortedCall: 'APIUserAbortError',
  abortedStream: 'ended',
};

/** Throws naming the first field where `actual` differs from the expectation. */
function checkConsumerResult(result) {
  const read = Array.isArray(result?.read) ? result.read : [];
  const ids = read.map((event) => event?.id);
  const actual = {
    ...result,
    read: read.map((event) => event?.message),
    resumed: Array.isArray(result?.resumed) ? result.resumed.map((event) => event?.message) : result?.resumed,
    resumedAfterFirst:
      ids.every((id) => typeof id === 'string' && id !== '') &&
      new Set(ids).size === ids.length &&
      isDeepStrictEqual(result?.resumed, read.slice(1)),
  };
  for (const [key, value] of Object.entries(EXPECTED)) {
    if (!isDeepStrictEqual(actual[key], value)) {
      throw new Error(`${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(actual[key])}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Running the consumer, the CLI and the MCP server.

/** The consumer as a program of `binary` (Node, Bun, Deno). */
async function consumerProgram(project, binary, baseUrl, prefix = []) {
  const { stdout } = await sh(binary, [...prefix, 'node-main.mjs', JSON.stringify(consumerInput(baseUrl))], project);
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/** The consumer as a Worker: bundled by esbuild (as wrangler would), run by workerd in miniflare. */
async function consumerWorker(project, node24, baseUrl) {
  const outfile = join(project, 'worker.bundle.mjs');
  await build({
    entryPoints: [join(project, 'worker.mjs')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    logLevel: 'error',
  });
  const { stdout } = await sh(
    node24,
    [join(RUNTIMES, 'workerd-host.mjs'), outfile, JSON.stringify(consumerInput(baseUrl)), WORKER_COMPATIBILITY_DATE],
    project,
  );
  const answer = JSON.parse(stdout.trim().split('\n').at(-1));
  if (answer.error) throw new Error(`the Worker threw: ${answer.error}`);
  return answer.result;
}

/**
 * The consumer as an ES module page in headless Chromium: the installed packages served as they
 * are from a static server, resolved by an import map made from their `exports`; the sandbox
 * allows the page's origin (its opt-in CORS).
 */
async function consumerPage(project, executablePath, startOwnSandbox) {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = join(project, path === '/' ? 'index.html' : path);
    if (!file.startsWith(project) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    const type = {
      '.html': 'text/html',
      '.mjs': 'text/javascript',
      '.js': 'text/javascript',
      '.json': 'application/json',
    };
    response.writeHead(200, { 'content-type': type[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const sandbox = await startOwnSandbox({ corsOrigins: [origin] });
  writeFileSync(
    join(project, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>matrix</title>
<script type="importmap">${JSON.stringify({ imports: importMap(project) })}</script>\n`,
  );
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    const result = await page.evaluate(
      async (input) => (await import('/consumer.mjs')).run(input),
      consumerInput(sandbox.url),
    );
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
    return { result, version: `Chromium ${browser.version()}` };
  } finally {
    await browser.close();
    await sandbox.close();
    server.close();
  }
}

/** Bare specifiers of the client and its dependencies, mapped to the installed files. */
function importMap(project) {
  const manifestOf = (name) => JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
  const client = '@browser-cloud/client';
  const imports = {};
  for (const name of [client, ...Object.keys(manifestOf(client).dependencies ?? {})]) {
    const manifest = manifestOf(name);
    for (const [subpath, target] of Object.entries(manifest.exports ?? { '.': manifest.module ?? manifest.main })) {
      const file = typeof target === 'string' ? target : (target.import ?? target.default);
      if (typeof file !== 'string') continue;
      const specifier = subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
      imports[specifier] = `/node_modules/${name}/${file.replace(/^\.\//, '')}`;
    }
  }
  return imports;
}

/** The CLI renames (JSON out) and refuses a bad name before the network (exit 2). */
async function cliSmoke(project, binary, baseUrl) {
  const bin = join(project, 'node_modules/@browser-cloud/cli/dist/bin.js');
  const env = { ...process.env, NO_COLOR: '1', BROWSER_CLOUD_BASE_URL: baseUrl, BROWSER_CLOUD_API_KEY: R.tokens.owner };
  const { stdout } = await sh(
    binary,
    [bin, 'profiles', 'rename', R.profiles.unnamed.id, 'matrix-cli', '--json'],
    project,
    env,
  );
  const renamed = JSON.parse(stdout);
  if (renamed.name !== 'matrix-cli') throw new Error(`the CLI's rename printed ${stdout}`);
  const refused = await execFileAsync(binary, [bin, 'profiles', 'rename', R.profiles.unnamed.id, 'x'.repeat(256)], {
    cwd: project,
    env,
    timeout: CHILD_TIMEOUT_MS,
  }).catch((error) => error);
  if (refused.code !== 2 || !/name/.test(refused.stderr ?? '')) {
    throw new Error(`the CLI's refusal of a 256-character name: exit ${refused.code}, ${refused.stderr}`);
  }
}

/** The MCP server over stdio: initialize, its tools (one per operation of the document), a rename through the client. */
async function mcpSmoke(project, binary, baseUrl) {
  const env = { ...process.env, BROWSER_CLOUD_BASE_URL: baseUrl, BROWSER_CLOUD_API_KEY: R.tokens.owner };
  const server = spawn(binary, [join(project, 'node_modules/@browser-cloud/mcp/dist/bin.js')], {
    cwd: project,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  server.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  const exited = new Promise((_, fail) =>
    server.on('exit', (code) => fail(new Error(`the MCP server exited (${code}): ${lastLines(stderr)}`))),
  );
  const waiting = new Map();
  let buffered = '';
  server.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      waiting.get(message.id)?.(message);
    }
  });
  let nextId = 0;
  const request = (method, params) => {
    const id = ++nextId;
    const answered = new Promise((done) => waiting.set(id, done));
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return Promise.race([answered, exited, timeout(`the MCP server's answer to ${method}`)]);
  };
  try {
    await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'runtime-matrix', version: '0.0.0' },
    });
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const list = await request('tools/list', {});
    const tools = (list.result?.tools ?? []).map((tool) => tool.name).sort();
    if (!isDeepStrictEqual(tools, Object.keys(TOOL_DEFINITIONS).sort())) {
      throw new Error(`the MCP server lists ${JSON.stringify(tools)}`);
    }
    const call = await request('tools/call', {
      name: 'rename_profile',
      arguments: { id_or_name: R.profiles.unnamed.id, name: 'matrix-mcp' },
    });
    if (call.result?.isError === true || call.result?.structuredContent?.name !== 'matrix-mcp') {
      throw new Error(`the MCP server's rename_profile answered ${JSON.stringify(call.result ?? call.error)}`);
    }
  } finally {
    server.kill();
  }
}

// ---------------------------------------------------------------------------------------------
// The matrix.

/**
 * Each row: what to run, and how it shows in the README table. `binary()` says where the
 * runtime is or why it is unavailable; `client`, `cli`, `mcp` run against `sandbox`.
 */
function matrix(project, installError) {
  const fromRegistry = (locate) => () => (installError ? { unavailable: installError } : locate());
  const programRow = (runtime, locate, options = {}) => ({
    runtime,
    locate,
    nodeMajor: options.nodeMajor,
    how: options.how,
    version: options.version ?? ((binary) => versionOf(binary).replace(/^v/, '')),
    client: (binary, sandbox) => consumerProgram(project, binary, sandbox.url, options.prefix),
    ...(options.tools ? { cli: (binary, sandbox) => cliSmoke(project, binary, sandbox.url) } : {}),
    ...(options.tools ? { mcp: (binary, sandbox) => mcpSmoke(project, binary, sandbox.url) } : {}),
  });
  return [
    programRow('Node.js 20', () => nodeBinary(20), {
      nodeMajor: 20,
      how: "`node` (the machine's)",
      tools: true,
      version: () => '20.x',
    }),
    programRow(
      'Node.js 22',
      fromRegistry(() => nodeBinary(22)),
      { nodeMajor: 22, how: '`node` (npm `node-<os>-<arch>`)', tools: true },
    ),
    programRow(
      'Node.js 24',
      fromRegistry(() => nodeBinary(24)),
      { nodeMajor: 24, how: '`node` (npm `node-<os>-<arch>`)', tools: true },
    ),
    programRow('Bun', fromRegistry(bunBinary), { how: '`bun` (npm `bun`)', tools: true }),
    programRow('Deno', fromRegistry(denoBinary), {
      how: '`deno run -A` (npm `deno`)',
      prefix: ['run', '-A'],
      version: (binary) => versionOf(binary).replace(/^deno (\S+).*/, '$1'),
    }),
    {
      runtime: 'Cloudflare workerd',
      locate: fromRegistry(() => {
        const node24 = nodeBinary(24);
        return node24.path ? node24 : { unavailable: `miniflare needs Node 22+: ${node24.unavailable}` };
      }),
      how: 'a Worker (esbuild bundle) in miniflare',
      version: () => `workerd ${JSON.parse(readFileSync(installed('workerd', 'package.json'), 'utf8')).version}`,
      client: (node24, sandbox) => consumerWorker(project, node24, sandbox.url),
    },
    {
      runtime: 'Chromium (headless)',
      locate: chromiumBinary,
      how: 'an ES module page, import map, no bundler',
      version: () => 'Debian `chromium`',
      page: true,
      client: (executablePath, _sandbox, startOwnSandbox) => consumerPage(project, executablePath, startOwnSandbox),
    },
  ];
}

/** Runs one row: each part against a sandbox of its own, bounded; never throws. */
async function runRow(row) {
  const started = Date.now();
  const located = row.locate();
  if (!located.path) return { row, status: 'UNAVAILABLE', reason: located.unavailable, parts: {} };
  const parts = {};
  // The table's version is what the repo pins (stable from run to run); the line says exactly what ran.
  const version = row.version(located.path);
  let detail = row.runtime === 'Node.js 20' ? process.version : version;
  const failures = [];
  for (const part of ['client', 'cli', 'mcp']) {
    if (!row[part]) continue;
    const sandboxes = [];
    const startOwnSandbox = async (options = {}) => {
      const sandbox = await startSandbox({ port: 0, quiet: true, ...options });
      sandboxes.push(sandbox);
      return sandbox;
    };
    try {
      const sandbox = row.page ? undefined : await startOwnSandbox();
      const outcome = await Promise.race([
        row[part](located.path, sandbox, startOwnSandbox),
        timeout(`${row.runtime} ${part}`),
      ]);
      if (part === 'client') {
        const result = row.page ? outcome.result : outcome;
        if (row.page) detail = outcome.version;
        checkConsumerResult(result);
      }
      parts[part] = 'pass';
    } catch (error) {
      parts[part] = 'fail';
      failures.push(`${part}: ${lastLines(error instanceof Error ? error.message : String(error))}`);
    } finally {
      await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return {
    row,
    status: failures.length === 0 ? 'PASS' : 'FAIL',
    reason: failures.join(' | '),
    parts,
    version,
    detail,
    seconds,
  };
}

/** Every production dependency of the installed packages accepts the Node lines `engines` names. */
function checkEngines(project, results) {
  const problems = [];
  for (const name of PACKAGES) {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
    if (manifest.engines?.node !== ENGINES_NODE) {
      problems.push(`${name} says engines.node ${JSON.stringify(manifest.engines?.node)}, not "${ENGINES_NODE}"`);
    }
  }
  // The range claims exactly the Node lines that passed here: no more (unproven), no fewer.
  const claimed = [];
  for (let major = 0; major <= 99; major++) {
    if (semver.intersects(ENGINES_NODE, `${major}.x`)) claimed.push(major);
  }
  const proven = results
    .filter((result) => result.row.nodeMajor !== undefined && result.status === 'PASS')
    .map((result) => result.row.nodeMajor);
  if (!isDeepStrictEqual(claimed, proven)) {
    problems.push(
      `"${ENGINES_NODE}" claims Node ${claimed.join(', ')}, the matrix passed on Node ${proven.join(', ')}`,
    );
  }
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
  let checked = 0;
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    const wanted = entry.engines?.node;
    if (!path || typeof wanted !== 'string') continue;
    checked++;
    if (!semver.subset(ENGINES_NODE, wanted))
      problems.push(`${path.replace(/^.*node_modules\//, '')} wants node ${wanted}`);
  }
  return { problems, checked, proven };
}

// ---------------------------------------------------------------------------------------------
// The README's "Runtimes" table.

const BEGIN =
  '<!-- runtime-matrix:begin (written by apps/runtime-matrix: npm run write-readme -w @browser-cloud/runtime-matrix) -->';
const END = '<!-- runtime-matrix:end -->';

function readmeTable(results) {
  const cell = (result, part) => {
    if (!result.row[part]) return '–';
    if (result.status === 'UNAVAILABLE') return 'not installed';
    return result.parts[part] === 'pass' ? 'passes' : 'FAILS';
  };
  const rows = [
    ['runtime', 'version', 'how the consumer runs', 'client', 'CLI', 'MCP server'],
    ...results.map((result) => [
      result.row.runtime,
      result.status === 'UNAVAILABLE' ? 'not installed' : result.version,
      result.row.how,
      cell(result, 'client'),
      cell(result, 'cli'),
      cell(result, 'mcp'),
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row) => `| ${row.map((value, column) => value.padEnd(widths[column])).join(' | ')} |`;
  return [
    line(rows[0]),
    `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

function checkOrWriteReadme(table) {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return `packages/client/README.md has no ${BEGIN} … ${END} block`;
  const current = text.slice(start + BEGIN.length, end).trim();
  if (writeReadme) {
    writeFileSync(README, `${text.slice(0, start + BEGIN.length)}\n\n${table}\n\n${text.slice(end)}`);
    return undefined;
  }
  return current === table
    ? undefined
    : `the "Runtimes" table of packages/client/README.md does not match this run; it should read:\n${table}`;
}

// ---------------------------------------------------------------------------------------------
// Helpers.

async function sh(command, args, cwd, env = { ...process.env, NO_COLOR: '1' }) {
  try {
    return await execFileAsync(command, args, { cwd, env, maxBuffer: 32 * 1024 * 1024, timeout: CHILD_TIMEOUT_MS });
  } catch (error) {
    const { stdout = '', stderr = '' } = error;
    throw new Error(`${command} ${args.join(' ').slice(0, 200)} failed: ${lastLines(`${stderr}\n${stdout}`)}`);
  }
}

function timeout(what) {
  return new Promise((_, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`${what} did not finish within ${CHILD_TIMEOUT_MS / 1000} s`)),
      CHILD_TIMEOUT_MS,
    );
    timer.unref();
  });
}

function lastLines(text, count = 6) {
  return String(text).trim().split('\n').slice(-count).join(' / ');
}

async function pool(items, size, work) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]);
      }
    }),
  );
  return results;
}

// ---------------------------------------------------------------------------------------------

const started = Date.now();
const installError = installRuntimes();
const project = installPackages();
let failed = false;
try {
  const results = await pool(matrix(project, installError), CONCURRENCY, runRow);
  console.log(`Runtime matrix: the packed packages in ${project}, each runtime against a sandbox of its own`);
  for (const result of results) {
    const parts = ['client', 'cli', 'mcp']
      .filter((part) => result.row[part])
      .map((part) => `${part} ${result.parts[part] ?? '-'}`)
      .join(', ');
    const head = `${result.status.padEnd(11)} ${result.row.runtime.padEnd(20)}`;
    if (result.status === 'UNAVAILABLE') console.log(`${head} ${result.reason}`);
    else
      console.log(
        `${head} ${result.detail.padEnd(22)} ${parts} (${result.seconds} s)${result.reason ? `: ${result.reason}` : ''}`,
      );
    if (result.status !== 'PASS') failed = true;
  }
  const engines = checkEngines(project, results);
  if (engines.problems.length === 0) {
    console.log(
      `${'PASS'.padEnd(11)} ${'engines'.padEnd(20)} "${ENGINES_NODE}" is Node ${engines.proven.join(', ')}, as run here, and all ${engines.checked} production dependencies with engines.node accept it`,
    );
  } else {
    failed = true;
    console.log(`${'FAIL'.padEnd(11)} ${'engines'.padEnd(20)} ${engines.problems.join('; ')}`);
  }
  const readmeProblem = checkOrWriteReadme(readmeTable(results));
  if (readmeProblem) {
    failed = true;
    console.log(`${'FAIL'.padEnd(11)} ${'README table'.padEnd(20)} ${readmeProblem}`);
  } else {
    console.log(`${'PASS'.padEnd(11)} ${'README table'.padEnd(20)} ${writeReadme ? 'written' : 'matches this run'}`);
  }
} finally {
  rmSync(project, { recursive: true, force: true });
}
console.log(`Runtime matrix: ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);
