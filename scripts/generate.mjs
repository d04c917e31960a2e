#!/usr/bin/env node
// `node scripts/generate.mjs` writes the generated code; `--check` fails when the committed code
// differs from what the document generates now (the drift check). `--artifacts <module>`: another
// generator of the repo (a module exporting generateArtifacts and OUTPUT_DIR), written and checked
// the same way. Generation owns its folder: it deletes a file there it no longer writes (a renamed
// or removed operation's), the check fails on one, and nothing is written outside it.
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { check: { type: 'boolean' }, artifacts: { type: 'string' } } });
const generator = values.artifacts
  ? pathToFileURL(resolve(values.artifacts)).href
  : '@browser-cloud/tooling/generate-artifacts';
const { generateArtifacts, OUTPUT_DIR } = await import(generator);
const root = fileURLToPath(new URL('..', import.meta.url));
const owned = resolve(OUTPUT_DIR);
const drifted = [];

/** Every file under `dir`, recursively; none when it does not exist. */
async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)])),
  );
  return nested.flat();
}

const artifacts = await generateArtifacts();
const written = new Set(artifacts.map(({ path }) => resolve(path)));
for (const path of written) {
  if (!path.startsWith(owned + sep)) throw new Error(`${generator} writes ${path}, outside its folder ${owned}`);
}

for (const { path, contents } of artifacts) {
  if (values.check) {
    if ((await readFile(path, 'utf8').catch(() => null)) !== contents) drifted.push(relative(root, path));
    continue;
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, contents);
  console.log(`generated ${relative(root, path)}`);
}

for (const path of await filesUnder(owned)) {
  if (written.has(path)) continue;
  if (values.check) {
    drifted.push(`${relative(root, path)} (not generated any more)`);
    continue;
  }
  await rm(path);
  console.log(`deleted ${relative(root, path)}`);
  // Its folder too, once empty (up to the owned folder).
  for (let dir = dirname(path); dir.startsWith(owned + sep); dir = dirname(dir)) {
    if (
      !(await rmdir(dir).then(
        () => true,
        () => false,
      ))
    )
      break;
  }
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
