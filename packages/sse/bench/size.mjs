// Bundle-size check of @browser-cloud/sse, on the built dist/ (run `npm run build` first).
// Bundles with esbuild (ESM, --minify, browser) and prints min and gzip -9 sizes of:
//   - client: what the typed client pulls in (`connectEventStream` + `parseJsonEvents`);
//   - full: everything `index.js` exports;
//   - in the client: when packages/client/dist exists, this package's gzip cost inside the
//     client's entry bundle (that bundle minus the same bundle with this package left external),
//     which is how the client's own bench reports it.
// Options: `--files` lists each dist file's minified bytes in the client bundle;
// `--dist=<folder>` measures another build of the package (e.g. an older one, for a before/after).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const distArg = process.argv.find((arg) => arg.startsWith('--dist='));
const dist = resolve(distArg === undefined ? `${packageDir}/dist` : distArg.slice('--dist='.length));
const distEntry = `${dist}/index.js`;
const clientEntry = resolve(packageDir, '../client/dist/index.js');
if (!existsSync(distEntry)) {
  console.error(`${distEntry} is missing: run \`npm run build\` in packages/sse first.`);
  process.exit(1);
}

/** Points every import of `@browser-cloud/sse` (and its `parser` / `retry-policy` entries) at the measured build. */
const useDist = {
  name: 'measured-dist',
  setup(build) {
    build.onResolve({ filter: /^@browser-cloud\/sse(?:\/(?:parser|retry-policy))?$/ }, ({ path }) => ({
      path: path === '@browser-cloud/sse' ? distEntry : `${dist}/${path.slice('@browser-cloud/sse/'.length)}.js`,
    }));
  },
};

async function measure(options) {
  const result = await build({
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // Left external, the package must not be resolved at all.
    plugins: options.external === undefined ? [useDist] : [],
    ...options,
  });
  const code = result.outputFiles[0].contents;
  const [output] = Object.values(result.metafile.outputs);
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs: output.inputs };
}

const fromEntry = (contents) => ({
  stdin: { contents, resolveDir: packageDir, sourcefile: 'entry.mjs', loader: 'js' },
});
// What the client imports from this package.
const client = await measure(
  fromEntry(
    `export { connectEventStream, createJsonEventDecoder, readBoundedBody } from '@browser-cloud/sse';\n` +
      `export { backoffDelay, isRetryable, parseRetryAfter } from '@browser-cloud/sse/retry-policy';\n`,
  ),
);
const full = await measure(fromEntry(`export * from '@browser-cloud/sse';\n`));

const row = (name, min, gzip) =>
  console.log(`${name.padEnd(12)}${String(min).padStart(11)}${String(gzip).padStart(15)}`);
row('entry', 'min bytes', 'gzip -9 bytes');
row('client', client.min, client.gzip);
row('full', full.min, full.gzip);

if (existsSync(clientEntry)) {
  // The client's figure: what the bundle of its entry loses without this package.
  const withSse = await measure({ entryPoints: [clientEntry], target: 'es2022' });
  const withoutSse = await measure({ entryPoints: [clientEntry], target: 'es2022', external: ['@browser-cloud/sse'] });
  const ownMin = Object.entries(withSse.inputs)
    .filter(([path]) => resolve(packageDir, path).startsWith(dist) || path.includes('sse/dist'))
    .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);
  row('in client', ownMin, withSse.gzip - withoutSse.gzip);
  console.log('(in client: minified bytes of this package in the client entry bundle, and its gzip cost there)');
}

if (process.argv.includes('--files')) {
  console.log('\nclient bundle, minified bytes per file:');
  const files = Object.entries(client.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  for (const [path, { bytesInOutput }] of files)
    if (bytesInOutput > 0) console.log(`${String(bytesInOutput).padStart(7)}  ${path}`);
}
