#!/usr/bin/env node
// `npm run test:api-workflow`: the README's "Changing the API" steps, with edits drawn from a seed,
// on a scratch copy of the repo (the README says what it checks, and its options).
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import semver from 'semver';
import { changesSinceRelease, nextVersion } from './lib/api-changes.mjs';
import { drawChanges, isGeneratedOrDocument, withVersion } from './lib/api-workflow-changes.mjs';
import { copyWorkingTree, git, installIn, run, sharedTurboCache, shareRuntimes } from './lib/scratch-copy.mjs';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    changes: { type: 'string', default: '5' },
    keep: { type: 'boolean' },
    here: { type: 'boolean' },
  },
});
const seed = values.seed === undefined ? randomInt(2 ** 31) : Number(values.seed);
const count = Number(values.changes);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1) {
  console.error('--seed and --changes take whole numbers (--changes at least 1).');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));

const step = (text) => console.log(`\n▶ ${text}`);
console.log(`api workflow: seed ${seed}, ${count} changes (replay: npm run test:api-workflow -- --seed ${seed})`);
const scratch = values.here ? root : mkdtempSync(join(tmpdir(), 'api-workflow-'));
const env = sharedTurboCache(root);
try {
  if (!values.here) {
    step(`scratch copy of ${root} in ${scratch}`);
    copyWorkingTree(root, scratch);
    console.log(`its install: ${installIn(scratch, root)}`);
    if (shareRuntimes(root, scratch))
      console.log("the runtime matrix's runtimes: this checkout's, installed from the same lock");
  }

  const document = join(scratch, 'openapi/openapi.yaml');
  const { text, changes, added } = drawChanges(readFileSync(document, 'utf8'), seed, count);
  writeFileSync(document, text);
  step(`edited openapi/openapi.yaml:\n${changes.map((c) => `  - ${c.done}`).join('\n')}`);

  // The gate reads the document alone: the version it asks is set before the one generation.
  const gate = { document: 'openapi/openapi.yaml', releasesDir: 'openapi/releases', cwd: scratch };
  const { released, version: current, changes: found } = changesSinceRelease(gate);
  const needed = nextVersion(released.version, found);
  const version = semver.gt(needed, current) ? needed : current;
  step(`info.version ${version}, as the gate asks for these changes`);
  writeFileSync(document, withVersion(readFileSync(document, 'utf8'), version));

  step('npm run generate');
  run('npm', ['run', 'generate', '--silent'], { cwd: scratch, env });
  // NUL-separated, so that a path in another script is written as it is, not quoted and escaped.
  const status = git(scratch, 'status', '--porcelain', '-z', '--untracked-files=all').split('\0');
  const outside = status.map((line) => line.slice(3)).filter((path) => path && !isGeneratedOrDocument(path));
  if (outside.length > 0) throw new Error(`npm run generate changed files outside the generated code: ${outside}`);

  for (const script of values.here ? ['lint', 'release'] : ['lint', 'release', 'test']) {
    step(`npm run ${script}`);
    run('npm', ['run', script, '--silent'], { cwd: scratch, env });
  }
  if (values.here) {
    console.log(`\nThe changes are made here; \`npm test\` next. Undo them with \`git stash -u\`.`);
    process.exit(0);
  }
  step(`${added.join(', ')} through the client, the sandbox, the MCP server, the CLI and the contract reports`);
  run('node', ['scripts/check-new-operation.mjs', ...added], { cwd: scratch, env });
  console.log(`\n✔ seed ${seed}: ${changes.map((c) => c.done).join('; ')}: each needed only the document.`);
} catch (error) {
  process.exitCode = 1;
  console.error(`\n✖ seed ${seed}: ${error instanceof Error ? error.message : error}`);
} finally {
  if (values.keep) console.log(`scratch copy kept: ${resolve(scratch)}`);
  else if (!values.here) rmSync(scratch, { recursive: true, force: true });
}
