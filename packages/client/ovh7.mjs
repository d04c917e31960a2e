import { createServer } from 'node:http';
import createFetchClient from 'openapi-fetch';
const profile = JSON.stringify({ id: 'prof_1', name: 'renamed', created_at: '2026-10-02T09:12:44Z' });
const server = createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(profile) }); s.end(profile); }); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const { createClient } = await import(process.cwd() + '/dist/index.js');
const { PendingRequest, transport } = await import(process.cwd() + '/dist/transport.js');
const { execute } = await import(process.cwd() + '/dist/request.js');
const { validateRenameProfileRequest, validateRenameProfilePath } = await import('@browser-cloud/api-types/validators');
const client = createClient({ baseUrl, token: 't' });
const send = transport(undefined);
const raw = createFetchClient({ baseUrl, fetch: send, headers: { authorization: 'Bearer t' } });
const rawMw = createFetchClient({ baseUrl, fetch: send }); rawMw.use({ onRequest({ request }) { request.headers.set('Authorization', 'Bearer t'); } });
const ctx = { fetch: undefined, send, timeoutMs: 60000, maxRetries: 2, secret: 't' };
const p = { params: { path: { id_or_name: 'prof_1' } }, body: { name: 'renamed' } };
const headers = { 'content-type': 'application/json', authorization: 'Bearer t' };
const V = {
  bare: () => fetch(`${baseUrl}/profiles/prof_1`, { method: 'PATCH', headers, body: '{"name":"renamed"}' }).then((r) => r.json()),
  pendSig: () => { const c = new AbortController(); const t = setTimeout(() => c.abort(), 60000); return raw.PATCH('/profiles/{id_or_name}', { ...p, Request: PendingRequest, signal: c.signal }).finally(() => clearTimeout(t)); },
  execNoMw: () => execute(ctx, { repeatable: true, send: (init) => raw.PATCH('/profiles/{id_or_name}', { ...p, ...init }) }),
  execMw: () => execute(ctx, { repeatable: true, send: (init) => rawMw.PATCH('/profiles/{id_or_name}', { ...p, ...init }) }),
  execMwVal: () => { validateRenameProfilePath({ id_or_name: 'prof_1' }); validateRenameProfileRequest(p.body); return execute(ctx, { repeatable: true, send: (init) => rawMw.PATCH('/profiles/{id_or_name}', { ...p, ...init }) }); },
  client: () => client.profiles.rename('prof_1', { name: 'renamed' }),
};
const names = Object.keys(V); const ns = Object.fromEntries(names.map((n) => [n, []]));
for (let i = 0; i < 300; i++) for (const n of names) await V[n]();
for (let i = 0; i < 2500; i++) { const order = [...names].sort(() => Math.random() - 0.5); for (const n of order) { const s = process.hrtime.bigint(); await V[n](); ns[n].push(Number(process.hrtime.bigint() - s)); } }
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const n of names) console.log(n.padEnd(10), (med(ns[n]) / 1000).toFixed(1), (med(ns[n]) / med(ns.bare)).toFixed(3));
server.close();
