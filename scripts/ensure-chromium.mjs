#!/usr/bin/env node
// Makes sure the browser tests (apps/api-reference) have a Chromium: CHROMIUM_PATH, else Debian's
// `chromium` package at /usr/bin/chromium, which this installs with apt-get when run as root
// (Playwright's own browser download cannot work here: only package registries are reachable).
// Exits 0 when a usable binary exists; otherwise it says how to get one.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const DEFAULT_PATH = '/usr/bin/chromium';

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function fail(message) {
  console.error(`ensure-chromium: ${message}
Install Debian/Ubuntu's Chromium package:
  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium
or point CHROMIUM_PATH at an existing Chromium or Chrome binary:
  CHROMIUM_PATH=/path/to/chrome npm test`);
  process.exit(1);
}

const configured = process.env.CHROMIUM_PATH;
// An explicit path that is wrong is a configuration error; installing something else would hide it.
if (configured && !isExecutable(configured)) fail(`CHROMIUM_PATH=${configured} is not an executable file.`);
if (configured || isExecutable(DEFAULT_PATH)) process.exit(0);
if (process.getuid?.() !== 0 || !isExecutable('/usr/bin/apt-get')) {
  fail(`no Chromium at ${DEFAULT_PATH}, and no apt-get to run as root to install it.`);
}

console.log(`ensure-chromium: no Chromium at ${DEFAULT_PATH}; installing Debian's \`chromium\` (about a minute).`);
// Quietly: apt's progress is hundreds of lines, shown only on failure. Without the recommended
// packages (avahi, cups helpers, Perl: about 480 MB), which a headless browser does not use; the
// lock timeout lets a concurrent apt run (unattended upgrades, say) finish instead of failing.
for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
  const result = spawnSync('apt-get', ['-qq', '-o', 'DPkg::Lock::Timeout=300', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    fail(`\`apt-get ${args.join(' ')}\` failed: ${result.error?.message ?? `exit code ${result.status}`}.`);
  }
}
if (!isExecutable(DEFAULT_PATH)) fail(`apt-get finished but ${DEFAULT_PATH} is still missing.`);
