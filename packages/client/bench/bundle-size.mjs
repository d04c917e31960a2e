// The size of an app's bundle as a browser app ships it: ESM, esbuild --minify, gzip -9
// (node:zlib). Shared by this package's bench and the scale benchmark (scripts/bench-scale.mjs).
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * `source`: an app's code, its imports resolved from `resolveDir`; without it, the module `entry`
 * itself. `external`: imports left out of the bundle.
 */
export async function bundleSize({ source, entry, resolveDir, external = [] }) {
  const input = source === undefined ? { entryPoints: [entry] } : { stdin: { contents: source, resolveDir } };
  const options = { bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false };
  const code = (await build({ ...input, ...options, external, logLevel: 'silent' })).outputFiles[0].contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}
