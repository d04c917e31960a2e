#!/usr/bin/env node
// Makes sure a Chromium binary exists for the browser tests (apps/api-reference).
//
// Playwright's own browser download cannot work here (only package registries are reachable), so
// the tests drive Debian's `chromium` package. Fresh CI machines do not have it: as root, this
// script installs it with apt-get; otherwise it stops with instructions.
//
// Looks at CHROMIUM_PATH first, then /usr/bin/chromium. Exit code 0 when a usable binary exists.
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';

const DEFAULT_PATH = '/usr/bin/chromium';
const INSTALL_HINT = [
  "Install Debian/Ubuntu's Chromium package:",
  '  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium',
  'or point CHROMIUM_PATH at an existing Chromium or Chrome binary:',
  '  CHROMIUM_PATH=/path/to/chrome npm test',
].join('\n');

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fail(message) {
  console.error(`ensure-chromium: ${message}\n${INSTALL_HINT}`);
  process.exit(1);
}

/** Runs a command quietly: its output is shown only when it fails (apt's progress is hundreds of lines). */
function run(command, args) {
  console.log(`ensure-chromium: $ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    fail(`\`${command} ${args.join(' ')}\` exited with ${result.status}.`);
  }
}

const configured = process.env.CHROMIUM_PATH;
if (configured) {
  // An explicit path that is wrong is a configuration error; installing something else would hide it.
  if (!isExecutable(configured)) fail(`CHROMIUM_PATH=${configured} is not an executable file.`);
  process.exit(0);
}

if (isExecutable(DEFAULT_PATH)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) fail(`no Chromium at ${DEFAULT_PATH}, and not running as root, so it cannot be installed automatically.`);
if (!isExecutable('/usr/bin/apt-get'))
  fail(`no Chromium at ${DEFAULT_PATH}, and apt-get is not available on this machine.`);

console.log(
  `ensure-chromium: no Chromium at ${DEFAULT_PATH}; installing Debian's \`chromium\` package (one-time, about a minute).`,
);
// Without its recommended packages (avahi, cups helpers, Perl: about 480 MB with them), which a
// headless browser does not use.
// The lock timeout lets a concurrent apt run (e.g. unattended upgrades) finish instead of failing at once.
run('apt-get', ['-qq', '-o', 'DPkg::Lock::Timeout=300', 'update']);
run('apt-get', ['-qq', '-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '--no-install-recommends', 'chromium']);

if (!isExecutable(DEFAULT_PATH)) fail(`apt-get finished but ${DEFAULT_PATH} is still missing.`);
const version = spawnSync(DEFAULT_PATH, ['--version'], { encoding: 'utf8' });
console.log(`ensure-chromium: installed ${(version.stdout || DEFAULT_PATH).trim()}`);
