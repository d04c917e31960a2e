#!/usr/bin/env node
// Runs the Redocly CLI (`node scripts/redocly.mjs lint …`) with telemetry off and without its
// Node 20 deprecation box: Redocly prints that 11-line box on every run under Node 20 and has no
// switch for it. Everything else it writes passes through unchanged, and its exit code is ours.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const bin = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
const child = spawn(process.execPath, [bin, ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'pipe'],
  env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
});

/** A box (from its ╔ line to its ╚ line) is held back, and dropped when it is the Node 20 notice. */
let box;
let afterDroppedBox = false;
createInterface({ input: child.stderr }).on('line', (line) => {
  if (box === undefined && line.includes('╔')) box = [];
  if (box !== undefined) {
    box.push(line);
    if (!line.includes('╚')) return;
    const text = box.join('\n');
    box = undefined;
    if (/Node\.js 20 support is ending/.test(text)) {
      afterDroppedBox = true;
      return;
    }
    process.stderr.write(`${text}\n`);
    return;
  }
  // The blank line that follows the dropped box goes with it.
  if (afterDroppedBox && line.trim() === '') {
    afterDroppedBox = false;
    return;
  }
  afterDroppedBox = false;
  process.stderr.write(`${line}\n`);
});
child.on('close', (code, signal) => {
  if (box !== undefined) process.stderr.write(`${box.join('\n')}\n`);
  process.exit(code ?? (signal ? 1 : 0));
});
