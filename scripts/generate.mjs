#!/usr/bin/env node
// `node scripts/generate.mjs` writes the generated code; `--check` fails when the committed code
// differs from what the document generates now (the drift check). `--artifacts <module>`: another
// generator of the repo (a module exporting generateArtifacts), written and checked the same way.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { check: { type: 'boolean' }, artifacts: { type: 'string' } } });
const generator = values.artifacts
  ? pathToFileURL(resolve(values.artifacts)).href
  : '@browser-cloud/tooling/generate-artifacts';
const { generateArtifacts } = await import(generator);
const root = fileURLToPath(new URL('..', import.meta.url));
const drifted = [];

for (const { path, contents } of await generateArtifacts()) {
  if (values.check) {
    if ((await readFile(path, 'utf8').catch(() => null)) !== contents) drifted.push(relative(root, path));
    continue;
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, contents);
  console.log(`generated ${relative(root, path)}`);
}

if (drifted.length > 0) {
  console.error(
    `Generated code is out of date with openapi/openapi.yaml:\n${drifted.map((f) => `  - ${f}`).join('\n')}\n` +
      'Run `npm run generate` and commit the result.',
  );
  process.exit(1);
} else if (values.check) {
  console.log('generated code matches openapi/openapi.yaml');
}
