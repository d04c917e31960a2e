#!/usr/bin/env node
// `npm run test:busy` (not run in CI): `npm test` beside two busy-loop processes per core, as a
// shared CI runner or a laptop with a build going is loaded. Every test must pass there too: a
// time limit only guards a hang, and a port is bound before it is passed on. `-- <command…>`
// runs another command instead of `npm test`; it gets the loops' process ids in BUSY_LOOP_PIDS.
// The exit code is the command's; the loops end with this script, however it ends.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, constants, loadavg } from 'node:os';

const PER_CORE = 2;
// Each loop spins, and leaves once its parent is gone (re-parented, its ppid changes), so that
// not even a SIGKILL of this script leaves one spinning.
const LOOP = `const parent = process.ppid; for (let i = 1; ; i++) if (i % 5e7 === 0 && process.ppid !== parent) process.exit(0);`;

const separator = process.argv.indexOf('--');
const [command, ...args] = separator === -1 ? ['npm', 'test'] : process.argv.slice(separator + 1);
if (command === undefined) {
  console.error('test:busy: nothing to run after --');
  process.exit(2);
}

const count = PER_CORE * availableParallelism();
const loops = Array.from({ length: count }, () => spawn(process.execPath, ['-e', LOOP], { stdio: 'ignore' }));
const stopLoops = () => {
  for (const loop of loops) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopLoops();
    process.exit(128 + constants.signals[signal]);
  });
}

const started = Date.now();
console.log(`test:busy: ${count} busy loops (${PER_CORE} per core) beside \`${[command, ...args].join(' ')}\``);
const pids = loops.map((loop) => loop.pid).join(',');
const run = spawn(command, args, { stdio: 'inherit', env: { ...process.env, BUSY_LOOP_PIDS: pids } });
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, loadavg()[0]);
}, 5_000).unref();
const code = await new Promise((resolve) => {
  run.once('error', (error) => {
    console.error(`✖ ${command}: ${error.message}`);
    resolve(1);
  });
  run.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
});
clearInterval(sampler);
stopLoops();
// Reaped before this script ends: nothing of them is left once it has exited.
await Promise.all(loops.map((loop) => (loop.exitCode ?? loop.signalCode) === null && once(loop, 'exit')));
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(
  `test:busy: \`${[command, ...args].join(' ')}\` ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${minutes} min, beside ${count} busy loops (peak 1-minute load average ${Math.max(peak, loadavg()[0]).toFixed(1)})`,
);
process.exitCode = code;
