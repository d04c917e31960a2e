#!/usr/bin/env node
// Runs the Redocly CLI (`node scripts/redocly.mjs lint …`) with telemetry off and without its
// Node 20 deprecation box: Redocly prints that 11-line box on every run under Node 20 and has no
// switch for it. Everything else it writes passes through unchanged, and its exit code is ours.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const bin = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
const { status, signal, stderr } = spawnSync(process.execPath, [bin, ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'pipe'],
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
  env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
});
// The box, from its ╔ line to its ╚ line, and the blank line after it.
process.stderr.write(stderr.replace(/^[^\n╔]*╔[^╚]*Node\.js 20 support is ending[^╚]*╚[^\n]*\n\n?/m, ''));
process.exitCode = status ?? (signal ? 1 : 0);
