#!/usr/bin/env node
// `npm run pack`: builds the publishable packages and packs them into packs/ (`--out <dir>` for
// another folder), for a project outside the repo to install: `npm install <dir>/*.tgz`. The
// folder's older tarballs are removed first, so that the glob takes one version of each package.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packPackages, publishablePackages } from '@browser-cloud/tooling/workspaces';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'packs') } } });
const out = resolve(values.out);
const build = spawnSync(
  join(root, 'node_modules/.bin/turbo'),
  ['run', 'build', ...publishablePackages(root).map((name) => `--filter=${name}...`), '--output-logs=errors-only'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
);
if (build.status !== 0) {
  console.error(`✖ the build failed${build.error ? `: ${build.error.message}` : ''}; nothing is packed.`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });
for (const name of readdirSync(out)) if (name.endsWith('.tgz')) rmSync(join(out, name));
const tarballs = packPackages(root, out);
console.log(`Packed into ${relative(process.cwd(), out) || '.'}:`);
for (const [name, path] of tarballs) console.log(`  ${name}  ${relative(process.cwd(), path)}`);
console.log(`\nIn your project: npm install ${join(out, '*.tgz')}`);
