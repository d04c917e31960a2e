import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const srcs = {
rename: `import { createConnection, renameProfile } from './dist/index.js';
  const connection = createConnection({ baseUrl: 'https://api.example.com', token: 't' });
  console.log(await renameProfile(connection, 'prof_1', { name: 'n' }));`,
login: `import { createConnection, loginAuthConnection } from './dist/index.js';
  const connection = createConnection({ baseUrl: 'https://api.example.com', token: 't' });
  console.log(await loginAuthConnection(connection, 'ac_1', { proxy: { id: 'p' } }));`,
stream: `import { createConnection, streamBrowserLogs } from './dist/index.js';
  const connection = createConnection({ baseUrl: 'https://api.example.com', token: 't' });
  for await (const e of streamBrowserLogs(connection, 'br_1', { source: 'path', path: '/x' })) console.log(e);`,
all: `import { createClient } from './dist/index.js';
  const client = createClient({ baseUrl: 'https://api.example.com', token: 't' });
  console.log(await client.auth.connections.login('ac_1', { proxy: { id: 'p' } }));
  console.log(await client.profiles.rename('prof_1', { name: 'n' }));
  for await (const event of client.browsers.logs.stream('br_1', { source: 'path', path: '/x' })) console.log(event);`};
const out = [];
for (const [k, src] of Object.entries(srcs)) {
const r = await build({ stdin: { contents: src, resolveDir: process.cwd(), loader: 'js' }, bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
out.push(`${k} ${gzipSync(r.outputFiles[0].contents, { level: 9 }).length}`);
if (process.argv[2] === k) console.log(r.outputFiles[0].text);
}
console.log(out.join('  '));
