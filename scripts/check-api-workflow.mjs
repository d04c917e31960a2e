#!/usr/bin/env node
// `npm run test:api-workflow`: the README's "Changing the API" steps, tried on a scratch copy of
// the repo. Four changes, made to openapi/openapi.yaml the way a contributor makes them (a wording
// change, an additive change, a breaking change with its bump, an enum value renamed), each
// followed by `npm run generate` and `npm run lint`; then `npm test` once over all four. It
// fails when any step fails, or when `npm run generate` touches a file outside the generated
// folders: a change to the API must need no hand edit beyond the document.
//
//   --each   run `npm test` after every change, not once at the end (slower, for local use)
//   --keep   keep the scratch copy and print where it is
//
// The copy is the working tree (tracked and untracked files, not ignored ones) in a temp
// directory, with its own `npm ci` (workspaces are symlinked inside node_modules, so a copied or
// shared node_modules would run the original packages). turbo's cache is shared with the
// original: tasks whose inputs the changes do not reach come from it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { API_WORKFLOW_CHANGES, isGeneratedOrDocument } from './lib/api-workflow-changes.mjs';

const { values } = parseArgs({ options: { each: { type: 'boolean' }, keep: { type: 'boolean' } } });
const root = fileURLToPath(new URL('..', import.meta.url));

function run(command, args, { cwd, capture = false, env = {} } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', REDOCLY_TELEMETRY: 'off', ...env },
  });
  if (result.status !== 0) {
    const output = capture ? `\n${result.stdout}${result.stderr}` : '';
    throw new Error(`\`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})${output}`);
  }
  return result.stdout ?? '';
}

const git = (cwd, ...args) =>
  run('git', ['-c', 'user.name=api-workflow', '-c', 'user.email=api-workflow@localhost', ...args], {
    cwd,
    capture: true,
  });

/** turbo keeps its cache beside the main checkout's root (for a worktree: the common .git's parent). */
function turboCacheOf(dir) {
  const common = git(dir, 'rev-parse', '--path-format=absolute', '--git-common-dir').trim();
  return join(dirname(common), '.turbo', 'cache');
}

function copyWorkingTree(from, to) {
  const files = git(from, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0');
  for (const file of files) {
    if (file === '' || !existsSync(join(from, file))) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(from, file), join(to, file), { verbatimSymlinks: true });
  }
  git(to, 'init', '-q');
  git(to, 'add', '-A');
  git(to, 'commit', '-q', '-m', 'scratch copy');
}

const step = (text) => console.log(`\n▶ ${text}`);
const scratch = mkdtempSync(join(tmpdir(), 'api-workflow-'));
const env = { TURBO_CACHE_DIR: turboCacheOf(root) };
let failed = false;
try {
  step(`scratch copy of ${root} in ${scratch}`);
  copyWorkingTree(root, scratch);
  run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: scratch });

  const document = join(scratch, 'openapi/openapi.yaml');
  for (const change of API_WORKFLOW_CHANGES) {
    step(`${change.name}: edit openapi/openapi.yaml`);
    writeFileSync(document, change.edit(readFileSync(document, 'utf8'), { root: scratch }));
    step(`${change.name}: npm run generate`);
    run('npm', ['run', 'generate', '--silent'], { cwd: scratch, env });
    const touched = git(scratch, 'status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3));
    const outside = touched.filter((path) => !isGeneratedOrDocument(path));
    if (outside.length > 0) throw new Error(`npm run generate changed files outside the generated code: ${outside}`);
    if (!touched.includes('openapi/openapi.yaml')) throw new Error(`${change.name} left the document unchanged`);
    console.log(`  changed: ${touched.join(', ')}`);
    step(`${change.name}: ${values.each ? 'npm test' : 'npm run lint'}`);
    run('npm', ['run', values.each ? 'test' : 'lint', '--silent'], { cwd: scratch, env });
    git(scratch, 'add', '-A');
    git(scratch, 'commit', '-q', '-m', change.name);
  }
  if (!values.each) {
    step(`npm test, with all ${API_WORKFLOW_CHANGES.length} changes made`);
    run('npm', ['test', '--silent'], { cwd: scratch, env });
  }
  console.log(`\n✔ ${API_WORKFLOW_CHANGES.map((c) => c.name).join(', ')}: each needed only the document.`);
} catch (error) {
  failed = true;
  console.error(`\n✖ ${error instanceof Error ? error.message : error}`);
} finally {
  if (values.keep) console.log(`scratch copy kept: ${resolve(scratch)}`);
  else rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
