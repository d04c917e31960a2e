// Bundle-size check of @browser-cloud/sse, on the built dist/ (run `npm run build` first).
// Bundles two entries with esbuild (ESM, --minify, browser) and prints min and gzip -9 sizes:
//   - client: what the typed client pulls in (`connectEventStream` + `parseJsonEvents`);
//   - full: everything `index.js` exports.
// With `--files`, also lists each dist file's minified bytes inside the client bundle.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
  console.error('dist/ is missing: run `npm run build` in packages/sse first.');
  process.exit(1);
}

const entries = {
  client: `import { connectEventStream, parseJsonEvents } from './dist/index.js';\nexport { connectEventStream, parseJsonEvents };\n`,
  full: `export * from './dist/index.js';\n`,
};

async function measure(contents) {
  const result = await build({
    stdin: { contents, resolveDir: packageDir, sourcefile: 'entry.mjs', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const [output] = Object.values(result.metafile.outputs);
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs: output.inputs };
}

const rows = [['entry', 'min bytes', 'gzip -9 bytes']];
let clientInputs;
for (const [name, contents] of Object.entries(entries)) {
  const { min, gzip, inputs } = await measure(contents);
  if (name === 'client') clientInputs = inputs;
  rows.push([name, String(min), String(gzip)]);
}
for (const row of rows) console.log(`${row[0].padEnd(8)}${row[1].padStart(11)}${row[2].padStart(15)}`);

if (process.argv.includes('--files')) {
  console.log('\nclient bundle, minified bytes per file:');
  const files = Object.entries(clientInputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  for (const [path, { bytesInOutput }] of files) console.log(`${String(bytesInOutput).padStart(7)}  ${path}`);
}
