// Figures of the client, against its built dist (see the README's "Benchmarks"): the gzipped
// size of apps that import only what they use, beside the official SDK, what each part of the
// entry costs and what `/raw` adds; the per-request cost of the rename beside bare fetch,
// openapi-fetch and the official SDK. Exits 1 when an app is over its limit, or when this client
// costs as much as openapi-fetch or more than 0.7× the official SDK per request.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Kernel from '@onkernel/sdk';
import { bundleSize } from './bundle-size.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, '..', 'dist', 'index.js');
const failures = [];

if (!existsSync(entry)) {
  console.error(`bench: ${relative(process.cwd(), entry)} is missing; build the package first.`);
  process.exit(1);
}

/** `source`: an app's code importing the client (bundled from the package folder), else the entry itself. */
const bundle = (source = undefined, external = []) =>
  bundleSize({ source, entry, resolveDir: join(here, '..'), external });

const connect = `import { createConnection, loginAuthConnection, renameProfile, streamBrowserLogs } from './dist/index.js';
  const connection = createConnection({ baseUrl: 'https://api.example.com', token: 't' });`;
const ALL_THREE = `import { createClient } from './dist/index.js';
  const client = createClient({ baseUrl: 'https://api.example.com', token: 't' });
  console.log(await client.auth.connections.login('ac_1', { proxy: { id: 'p' } }));
  console.log(await client.profiles.rename('prof_1', { name: 'n' }));
  for await (const event of client.browsers.logs.stream('br_1', { source: 'path', path: '/x' })) console.log(event);`;

/** The limits (min+gzip bytes) of issue 27: what the required behaviour costs, which generated methods must not add to. */
const app = (name, limit, call) => ({ app: name, limit, source: `${connect} ${call}` });
const APPS = [
  { app: 'all three (createClient)', limit: 15_500, source: ALL_THREE },
  app('rename only (renameProfile)', 8_000, `console.log(await renameProfile(connection, 'prof_1', { name: 'n' }));`),
  app(
    'login only (loginAuthConnection)',
    9_200,
    `console.log(await loginAuthConnection(connection, 'ac_1', { proxy: { id: 'p' } }));`,
  ),
  app(
    'log stream only (streamBrowserLogs)',
    12_600,
    `for await (const e of streamBrowserLogs(connection, 'br_1', { source: 'path', path: '/x' })) console.log(e);`,
  ),
];

/**
 * An app that imports one resource's module (`@browser-cloud/client/resources/profiles`) bundles
 * that resource only: at most the standalone function of its one operation and this much more
 * (the resource object), however many operations the document has elsewhere.
 */
const RESOURCE_APP = {
  app: 'profiles resource only (/resources/profiles)',
  margin: 300,
  peer: 'rename only (renameProfile)',
  source: `import { createConnection } from './dist/index.js';
  import { profilesResource } from './dist/generated/resources/profiles.js';
  const profiles = profilesResource(createConnection({ baseUrl: 'https://api.example.com', token: 't' }));
  console.log(await profiles.rename('prof_1', { name: 'n' }));`,
};

const OFFICIAL_SDK_APP = `import Kernel from '@onkernel/sdk';
  const client = new Kernel({ baseURL: 'https://api.example.com', apiKey: 't' });
  console.log(await client.auth.connections.login('ac_1', { proxy: { id: 'p' } }));
  console.log(await client.profiles.update('prof_1', { name: 'n' }));
  for await (const event of await client.browsers.logs.stream('br_1', { source: 'path', path: '/x' })) console.log(event);`;

const row = (label, bytes, after = '') => console.log(`  ${label.padEnd(36)} ${String(bytes).padStart(6)} B${after}`);

async function size() {
  console.log('Apps that import only what they use: ESM, esbuild --minify, gzip -9 (node:zlib)');
  for (const { app, limit, source } of APPS) {
    const { gzipped } = await bundle(source);
    row(app, gzipped, `   limit ${limit} B: ${gzipped <= limit ? 'within' : 'OVER'}`);
    if (gzipped > limit) failures.push(`${app} is ${gzipped} B, over ${limit} B`);
  }
  const peer = (await bundle(APPS.find((app) => app.app === RESOURCE_APP.peer).source)).gzipped;
  const resource = (await bundle(RESOURCE_APP.source)).gzipped;
  const limit = peer + RESOURCE_APP.margin;
  row(
    RESOURCE_APP.app,
    resource,
    `   limit ${limit} B (${RESOURCE_APP.peer} + ${RESOURCE_APP.margin}): ${resource <= limit ? 'within' : 'OVER'}`,
  );
  if (resource > limit)
    failures.push(`${RESOURCE_APP.app} is ${resource} B, over ${limit} B: it bundles more than its resource`);
  row('official SDK, the same three', (await bundle(OFFICIAL_SDK_APP)).gzipped);
  const withRaw = await bundle(`${ALL_THREE}
    import { createRawClient } from './dist/raw.js';
    console.log(await createRawClient(client).PATCH('/profiles/{id_or_name}', { params: { path: { id_or_name: 'p' } }, body: { name: 'n' } }));`);
  row('all three and createRawClient (/raw)', withRaw.gzipped);

  // A part's gzip cost: how much smaller the entry's bundle gets without it (its imports left external).
  const full = await bundle();
  console.log(`The entry (dist/index.js, all exports): ${full.gzipped} B gzip, ${full.minified} B minified; by part:`);
  const parts = {
    'generated validators': '@browser-cloud/api-types/validators',
    '@browser-cloud/sse': '@browser-cloud/sse',
  };
  for (const [part, external] of Object.entries(parts)) {
    row(part, full.gzipped - (await bundle(undefined, [external])).gzipped, ' gzip cost');
  }
  row('client code', (await bundle(undefined, Object.values(parts))).gzipped, ' alone (the other parts external)');
}

async function perRequest() {
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
  const official = new Kernel({ baseURL: baseUrl, apiKey: token });
  const body = { name: 'renamed' };
  const variants = {
    'bare fetch': () =>
      fetch(`${baseUrl}/profiles/prof_1`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }).then((response) => response.json()),
    'this client': () => client.profiles.rename('prof_1', body),
    'openapi-fetch (createRawClient)': () =>
      raw.PATCH('/profiles/{id_or_name}', { params: { path: { id_or_name: 'prof_1' } }, body }),
    'official SDK (profiles.update)': () => official.profiles.update('prof_1', body),
  };
  const names = Object.keys(variants);

  // Requests alternate one by one, in a random order each round, so that load from other
  // processes hits every variant alike; per-request medians are robust to the bursts that remain.
  const rounds = 3000;
  for (let i = 0; i < 300; i++) for (const name of names) await variants[name]();
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < rounds; i++) {
    for (const name of [...names].sort(() => Math.random() - 0.5)) {
      const start = process.hrtime.bigint();
      await variants[name]();
      samples[name].push(Number(process.hrtime.bigint() - start));
    }
  }
  server.close();
  const median = (values) => [...values].sort((x, y) => x - y)[values.length >> 1];
  const medians = Object.fromEntries(names.map((name) => [name, median(samples[name])]));
  console.log(`Per request: the rename (PATCH, JSON body, JSON answer) on a local node:http server, ${rounds} rounds`);
  for (const name of names) {
    const [time, ratio] = [(medians[name] / 1000).toFixed(1), (medians[name] / medians['bare fetch']).toFixed(2)];
    console.log(`  ${name.padEnd(32)} median ${time.padStart(6)} µs  ×${ratio} bare fetch`);
  }
  const toRaw = medians['this client'] / medians['openapi-fetch (createRawClient)'];
  const toOfficial = medians['this client'] / medians['official SDK (profiles.update)'];
  const [vsRaw, vsSdk] = [toRaw.toFixed(2), toOfficial.toFixed(2)];
  console.log(`  this client: ×${vsRaw} openapi-fetch (target < 1), ×${vsSdk} the official SDK (target ≤ 0.7)`);
  if (toRaw >= 1) failures.push(`per request, this client costs ×${vsRaw} openapi-fetch`);
  if (toOfficial > 0.7) failures.push(`per request, this client costs ×${vsSdk} the official SDK`);
}

await size();
console.log('');
await perRequest();
if (failures.length > 0) {
  console.error(`bench: ${failures.join('; ')}`);
  process.exitCode = 1;
}
