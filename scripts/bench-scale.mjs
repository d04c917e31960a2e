#!/usr/bin/env node
// `npm run bench:scale`: the repo at the service's size. On a scratch copy, for N synthetic CRUD
// operations added to the document (N/5 resources, `withCrudOperations`; N = 0, 30 and 100 by
// default, `--sizes 0,50`), prints what generating, building and checking it costs and what it
// yields: `npm run generate` and `npm run build` (turbo's cache bypassed), the contract suite on
// the sandbox (its time against N = 0's, which issue 33 bounds at 6× for N = 100), the gzipped
// bundle of an app calling one method through `createClient` and through its standalone function,
// and the MCP server's tools/list (tools and bytes) by default and with --tools=all. Minutes; not
// in CI. `--keep` keeps the scratch copy.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { operations, parseOpenApiDocument } from '@browser-cloud/openapi-document';
import { bundleSize } from '../packages/client/bench/bundle-size.mjs';
import { withCrudOperations } from './lib/api-workflow-changes.mjs';
import { copyWorkingTree, installIn, run } from './lib/scratch-copy.mjs';

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '0,30,100' }, keep: { type: 'boolean' } },
});
const sizes = values.sizes.split(',').map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 0)) {
  console.error('--sizes takes whole numbers separated by commas, e.g. --sizes 0,30,100');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const note = (text) => console.error(`[bench:scale] ${text}`);

/** Runs an npm script in `dir` (output kept, shown on failure); its wall time in seconds and its output. */
function timed(dir, args) {
  const start = performance.now();
  const output = run('npm', args, { cwd: dir, capture: true });
  return { seconds: (performance.now() - start) / 1000, output };
}

/** The app's two ways of calling one method (a rename): through createClient, and its standalone function. */
const APPS = {
  createClient: `import { createClient } from './dist/index.js';
    const client = createClient({ baseUrl: 'https://api.example.com', token: 't' });
    console.log(await client.profiles.rename('prof_1', { name: 'n' }));`,
  renameProfile: `import { createConnection, renameProfile } from './dist/index.js';
    const connection = createConnection({ baseUrl: 'https://api.example.com', token: 't' });
    console.log(await renameProfile(connection, 'prof_1', { name: 'n' }));`,
};

/** The built MCP server's tools/list with `args`: its tool count, its bytes (JSON) and what it says on stderr. */
async function toolsList(dir, args) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(dir, 'packages/mcp/dist/bin.js'), ...args],
    env: { PATH: process.env.PATH ?? '', BROWSER_CLOUD_BASE_URL: 'http://127.0.0.1:9', BROWSER_CLOUD_API_KEY: 'sk_x' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'bench-scale', version: '0' });
  await client.connect(transport);
  try {
    const listed = await client.listTools();
    return { tools: listed.tools.length, bytes: Buffer.byteLength(JSON.stringify(listed)), stderr: stderr.trim() };
  } finally {
    await client.close();
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'bench-scale-'));
const rows = [];
try {
  note(`scratch copy of ${root} in ${scratch}`);
  copyWorkingTree(root, scratch);
  note(`its install: ${installIn(scratch, root)}`);
  const documentPath = join(scratch, 'openapi/openapi.yaml');
  const original = readFileSync(documentPath, 'utf8');
  for (const added of sizes) {
    const text = withCrudOperations(original, added);
    writeFileSync(documentPath, text);
    const total = [...operations(parseOpenApiDocument(text, documentPath))].length;
    note(`N = ${added}: generate`);
    const generate = timed(scratch, ['run', 'generate', '--silent', '--', '--force']);
    note(`N = ${added}: build`);
    const build = timed(scratch, ['run', 'build', '--silent', '--', '--force']);
    note(`N = ${added}: the contract suite on the sandbox`);
    const contractArgs = ['run', 'contract', '-w', '@browser-cloud/contract-tests', '--', '--target', 'sandbox'];
    const contract = timed(scratch, contractArgs);
    const verdict = contract.output.trim().split('\n').at(-1);
    const client = join(scratch, 'packages/client');
    const bundles = {};
    for (const [app, source] of Object.entries(APPS))
      bundles[app] = (await bundleSize({ source, resolveDir: client })).gzipped;
    const dynamic = await toolsList(scratch, []);
    const all = await toolsList(scratch, ['--tools=all']);
    rows.push({ added, total, generate, build, contract, verdict, bundles, dynamic, all });
    note(`N = ${added}: ${verdict}`);
  }
} catch (error) {
  process.exitCode = 1;
  console.error(`\n✖ ${error instanceof Error ? error.message : error}`);
} finally {
  if (values.keep) note(`scratch copy kept: ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}

const s = (seconds) => `${seconds.toFixed(1)} s`;
/** A turbo run's time and how many of its tasks came from a cache (none should: --force). */
const turbo = ({ seconds, output }) => {
  const [, cached, total] = /Cached:\s+(\d+) cached, (\d+) total/.exec(output) ?? [];
  return cached === undefined ? s(seconds) : `${s(seconds)} (${cached}/${total} cached)`;
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const table = [
  [
    'added operations',
    'generate',
    'build',
    'contract (sandbox)',
    'createClient app',
    'renameProfile app',
    'MCP tools/list',
    'MCP --tools=all',
  ],
  ...rows.map(({ added, total, generate, build, contract, bundles, dynamic, all }) => [
    `${added} (${total} in all)`,
    turbo(generate),
    turbo(build),
    `${s(contract.seconds)} (${(contract.seconds / rows[0].contract.seconds).toFixed(2)}×)`,
    `${bundles.createClient} B`,
    `${bundles.renameProfile} B`,
    `${dynamic.tools} tools, ${kb(dynamic.bytes)}`,
    `${all.tools} tools, ${kb(all.bytes)}`,
  ]),
];
const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
console.log('\nThe repo at the service’s size (bundles: min+gzip; contract: × its time at the first size)');
for (const row of table) console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join('  ')}`);
for (const { added, verdict, dynamic } of rows) {
  console.log(`  N = ${added}: ${verdict}${dynamic.stderr ? `\n    MCP server: ${dynamic.stderr}` : ''}`);
}
