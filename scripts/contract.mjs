#!/usr/bin/env node
// `npm run contract [-- <arguments>]`: turbo's `contract` task (the document's lint, the drift
// check, the build, then the contract suite against the mock), the arguments handed to the
// contract runner: `npm run contract -- --allow-skips`. The exit code is turbo's.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractTurboArguments } from './lib/contract-command.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const turbo = join(root, 'node_modules', '.bin', 'turbo');
const run = spawnSync(turbo, contractTurboArguments(process.argv.slice(2)), { cwd: root, stdio: 'inherit' });
if (run.error) console.error(`✖ turbo: ${run.error.message}`);
process.exitCode = run.status ?? 1;
