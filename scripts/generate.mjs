#!/usr/bin/env node
// `node scripts/generate.mjs` writes the generated code; `--check` fails when the committed
// code differs from what the document generates now (the drift check).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const check = process.argv.includes('--check');
// `--artifacts <module>`: another generator of the repo (a module exporting generateArtifacts),
// written and drift-checked the same way.
const from = process.argv[process.argv.indexOf('--artifacts') + 1];
const { generateArtifacts } = process.argv.includes('--artifacts')
  ? await import(pathToFileURL(resolve(from)).href)
  : await import('./lib/generate-artifacts.mjs');
const root = new URL('..', import.meta.url).pathname;
const drifted = [];

for (const { path, contents } of await generateArtifacts()) {
  const name = relative(root, path);
  if (check) {
    const committed = await readFile(path, 'utf8').catch(() => null);
    if (committed !== contents) drifted.push(name);
    continue;
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, contents);
  console.log(`generated ${name}`);
}

if (drifted.length > 0) {
  console.error(
    `Generated code is out of date with openapi/openapi.yaml:\n${drifted.map((f) => `  - ${f}`).join('\n')}\n` +
      'Run `npm run generate` and commit the result.',
  );
  process.exit(1);
} else if (check) {
  console.log('generated code matches openapi/openapi.yaml');
}
