// Figures of the client, against its built dist (run `npm run build -w @browser-cloud/client` first;
// `npm run bench` at the root builds through turbo):
//  1. size: the ESM bundle of the client's entry with everything it imports (the SSE helper, the
//     generated validators), minified by esbuild and gzipped with node:zlib, beside the official
//     SDK's figure for the same three operations; plus what each part costs, and what the
//     `@browser-cloud/client/raw` subpath (openapi-fetch) adds for an app that uses it too.
//     Four apps that import only what they use (one operation each through `createConnection`,
//     and all three through `createClient`) are held to issue 22's limits: the bench exits 1
//     when one is above its limit.
//  2. overhead: time per request through the client against bare fetch, on a local node:http
//     server, same requests, interleaved rounds; printed as a ratio.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, '..', 'dist', 'index.js');
const OFFICIAL_SDK_GZIP_KB = 18.8;
const TARGET_RATIO = 1.1;

if (!existsSync(entry)) {
  console.error(`bench: ${relative(process.cwd(), entry)} is missing; build the package first.`);
  process.exit(1);
}

const kB = (bytes) => (bytes / 1000).toFixed(1);

/** `source`: an app's code importing the client (bundled from the package folder), else the entry itself. */
async function bundle(external = [], source = undefined) {
  const result = await build({
    ...(source === undefined
      ? { entryPoints: [entry] }
      : { stdin: { contents: source, resolveDir: join(here, '..'), loader: 'js' } }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    external,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, metafile: result.metafile };
}

/** Which part of the bundle an input file belongs to. */
function partOf(path) {
  if (path.includes('openapi-fetch')) return 'openapi-fetch';
  if (path.includes('ajv-formats')) return 'ajv-formats (formats.js)';
  if (path.includes('ajv/dist/runtime')) return 'ajv runtime (ucs2length.js)';
  if (path.includes('api-types')) return 'generated validators';
  if (path.includes('sse/dist')) return '@browser-cloud/sse';
  return 'client code';
}

async function size() {
  const full = await bundle();
  const output = Object.values(full.metafile.outputs)[0];
  const parts = new Map();
  const files = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    parts.set(partOf(path), (parts.get(partOf(path)) ?? 0) + bytesInOutput);
    files.set(path, bytesInOutput);
  }
  // A part's gzip cost: how much smaller the bundle gets without it (its imports left external).
  const externals = {
    'openapi-fetch': ['openapi-fetch'],
    '@browser-cloud/sse': ['@browser-cloud/sse'],
    'generated validators': ['@browser-cloud/api-types/validators'],
  };
  const marginal = new Map();
  for (const [part, external] of Object.entries(externals)) {
    marginal.set(part, full.gzipped - (await bundle(external)).gzipped);
  }

  const appSource = `import { createClient } from './dist/index.js';
     const client = createClient({ baseUrl: 'https://api.example.com', token: 't' });
     await client.auth.connections.login('ac_1', { proxy: { id: 'p' } });
     await client.profiles.rename('prof_1', { name: 'n' });
     for await (const event of client.browsers.logs.stream('br_1', { source: 'path', path: '/x' })) console.log(event);`;
  const app = await bundle([], appSource);
  const withRaw = await bundle(
    [],
    `${appSource}
     import { createRawClient } from './dist/raw.js';
     console.log(await createRawClient(client).PATCH('/profiles/{id_or_name}', { params: { path: { id_or_name: 'p' } }, body: { name: 'n' } }));`,
  );
  // The client's own code has no "without it" bundle: measure it alone, its imports left external.
  const alone = (await bundle(Object.values(externals).flat())).gzipped;

  console.log('Bundle: ESM, esbuild --minify, gzip -9 (node:zlib)');
  console.log(
    `  client entry (dist/index.js, every export):          ${kB(full.gzipped)} kB gzip (${kB(full.minified)} kB minified)`,
  );
  console.log(
    `  an app calling the three operations (tree-shaken):   ${kB(app.gzipped)} kB gzip (${kB(app.minified)} kB minified)`,
  );
  console.log(
    `  the same app also using createRawClient (/raw):     ${kB(withRaw.gzipped)} kB gzip (${kB(withRaw.minified)} kB minified)`,
  );
  console.log(
    `  official SDK, same three operations:                 ${OFFICIAL_SDK_GZIP_KB.toFixed(1)} kB gzip (measured before)`,
  );
  console.log(
    '  by part: minified bytes in the entry bundle; gzip cost = the bundle minus the bundle without that part',
  );
  for (const [part, bytes] of [...parts].sort((a, b) => b[1] - a[1])) {
    const cost = marginal.has(part)
      ? `gzip cost ${kB(marginal.get(part))} kB`
      : part === 'client code'
        ? `gzip ${kB(alone)} kB alone (the other parts external)`
        : 'inside the validators';
    console.log(`    ${part.padEnd(28)} ${String(bytes).padStart(6)} B   ${cost}`);
  }
  if (!parts.has('ajv-formats (formats.js)')) {
    console.log(
      '    ajv-formats (formats.js)          0 B   not bundled: the generated validators take format as an annotation',
    );
  }
  console.log('  largest files:');
  for (const [path, bytes] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
    console.log(
      `    ${String(bytes).padStart(6)} B  ${path.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '')}`,
    );
  }
  return appSource;
}

async function overhead() {
  const { createClient } = await import(entry);
  const { createRawClient } = await import(join(here, '..', 'dist', 'raw.js'));
  const profile = JSON.stringify({ id: 'prof_1', name: 'renamed', created_at: '2026-10-02T09:12:44Z' });
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(profile) });
      response.end(profile);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  const token = 'bench-token';
  const client = createClient({ baseUrl, token });
  const raw = createRawClient(client);
  const body = { name: 'renamed' };

  const url = `${baseUrl}/profiles/prof_1`;
  const init = () => ({
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const variants = {
    'bare fetch': () => fetch(url, init()).then((response) => response.json()),
    // What any client with a per-request timeout pays: an AbortController, a timer, a signal.
    'bare fetch + timeout signal': () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 60_000);
      return fetch(url, { ...init(), signal: controller.signal })
        .then((response) => response.json())
        .finally(() => clearTimeout(timer));
    },
    // openapi-fetch as users of `createRawClient` get it: a real Request, which fetch then copies.
    'openapi-fetch (createRawClient)': () =>
      raw.PATCH('/profiles/{id_or_name}', { params: { path: { id_or_name: 'prof_1' } }, body }),
    'this client (rename)': () => client.profiles.rename('prof_1', body),
  };
  const names = Object.keys(variants);

  // Requests alternate one by one, in a random order each round, so that load from other
  // processes hits every variant alike; per-request medians are robust to the bursts that remain.
  const rounds = 3000;
  for (let i = 0; i < 300; i++) for (const name of names) await variants[name]();
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < rounds; i++) {
    const order = [...names].sort(() => Math.random() - 0.5);
    for (const name of order) {
      const start = process.hrtime.bigint();
      await variants[name]();
      samples[name].push(Number(process.hrtime.bigint() - start));
    }
  }
  server.close();
  const median = (values) => [...values].sort((x, y) => x - y)[values.length >> 1];
  const bareMedian = median(samples['bare fetch']);
  console.log(
    `Per-request overhead: rename (PATCH, JSON body, JSON answer) on a local node:http server, ${rounds} interleaved rounds`,
  );
  for (const name of names) {
    const m = median(samples[name]);
    console.log(
      `  ${name.padEnd(32)} median ${(m / 1000).toFixed(1).padStart(6)} µs  ratio ${(m / bareMedian).toFixed(3)}`,
    );
  }
  // Spread: the ratio of medians over batches of 300 rounds.
  const batches = [];
  for (let i = 0; i < rounds; i += 300) {
    const typed = median(samples['this client (rename)'].slice(i, i + 300));
    batches.push(typed / median(samples['bare fetch'].slice(i, i + 300)));
  }
  batches.sort((x, y) => x - y);
  const ratio = median(samples['this client (rename)']) / bareMedian;
  // The floor of this design: fetch(url, init) with the per-attempt timeout signal, nothing else.
  const floor = median(samples['bare fetch + timeout signal']);
  console.log(
    `  the client's own layer (checks, retry loop, error mapping) over that floor: ${(((median(samples['this client (rename)']) - floor) / floor) * 100).toFixed(1)} %`,
  );
  console.log(
    `  client/bare ratio ${ratio.toFixed(3)} (batches: ${batches[0].toFixed(3)}…${batches.at(-1).toFixed(3)}); target < ${TARGET_RATIO}: ${ratio < TARGET_RATIO ? 'met' : 'NOT met'}`,
  );
}

/**
 * Issue 22's limits (min+gzip bytes) for apps that import only what they use. An app of one
 * operation goes through `createConnection` and that operation's function; all three through
 * `createClient`, as the README's first example does.
 */
const PAY_FOR_WHAT_YOU_USE = [
  {
    app: 'rename only (renameProfile)',
    limit: 6_000,
    source: `import { createConnection, renameProfile } from './dist/index.js';
     const connection = createConnection({ baseUrl: 'https://api.example.com', token: 't' });
     console.log(await renameProfile(connection, 'prof_1', { name: 'n' }));`,
  },
  {
    app: 'login only (loginAuthConnection)',
    limit: 7_000,
    source: `import { createConnection, loginAuthConnection } from './dist/index.js';
     const connection = createConnection({ baseUrl: 'https://api.example.com', token: 't' });
     console.log(await loginAuthConnection(connection, 'ac_1', { proxy: { id: 'p' } }));`,
  },
  {
    app: 'log stream only (streamBrowserLogs)',
    limit: 10_000,
    source: `import { createConnection, streamBrowserLogs } from './dist/index.js';
     const connection = createConnection({ baseUrl: 'https://api.example.com', token: 't' });
     for await (const event of streamBrowserLogs(connection, 'br_1', { source: 'path', path: '/x' })) console.log(event);`,
  },
  { app: 'all three (createClient)', limit: 13_800, source: undefined },
];

async function payForWhatYouUse(allThreeSource) {
  console.log('Apps that import only what they use: ESM, esbuild --minify, gzip -9 (node:zlib)');
  const over = [];
  for (const { app, limit, source } of PAY_FOR_WHAT_YOU_USE) {
    const { gzipped } = await bundle([], source ?? allThreeSource);
    const verdict = gzipped <= limit ? 'within' : 'OVER';
    console.log(`  ${app.padEnd(36)} ${String(gzipped).padStart(6)} B gzip   limit ${limit} B: ${verdict}`);
    if (gzipped > limit) over.push(app);
  }
  return over;
}

const allThreeSource = await size();
console.log('');
const over = await payForWhatYouUse(allThreeSource);
console.log('');
await overhead();
if (over.length > 0) {
  console.error(`bench: above the size limit: ${over.join(', ')}`);
  process.exitCode = 1;
}
