import { createServer } from 'node:http';
import createFetchClient from 'openapi-fetch';
const profile = JSON.stringify({ id: 'prof_1', name: 'renamed', created_at: '2026-10-02T09:12:44Z' });
const server = createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(profile) }); s.end(profile); }); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const { createClient } = await import(process.cwd() + '/dist/index.js');
const { PendingRequest } = await import(process.cwd() + '/dist/transport.js');
const client = createClient({ baseUrl, token: 't' });
const raw = createFetchClient({ baseUrl, fetch: (r) => fetch(r.url, r.init()), headers: { authorization: 'Bearer t' } });
const headers = { 'content-type': 'application/json', authorization: 'Bearer t' };
const p = { params: { path: { id_or_name: 'prof_1' } }, body: { name: 'renamed' } };
const V = {
  bare: () => fetch(`${baseUrl}/profiles/prof_1`, { method: 'PATCH', headers, body: '{"name":"renamed"}' }).then((r) => r.json()),
  bareSig: () => { const c = new AbortController(); const t = setTimeout(() => c.abort(), 60000); return fetch(`${baseUrl}/profiles/prof_1`, { method: 'PATCH', headers, body: '{"name":"renamed"}', signal: c.signal }).then((r) => r.json()).finally(() => clearTimeout(t)); },
  pend: () => raw.PATCH('/profiles/{id_or_name}', { ...p, Request: PendingRequest }),
  pendSig: () => { const c = new AbortController(); const t = setTimeout(() => c.abort(), 60000); return raw.PATCH('/profiles/{id_or_name}', { ...p, Request: PendingRequest, signal: c.signal }).finally(() => clearTimeout(t)); },
  client: () => client.profiles.rename('prof_1', { name: 'renamed' }),
};
const names = Object.keys(V); const ns = Object.fromEntries(names.map((n) => [n, []]));
for (let i = 0; i < 300; i++) for (const n of names) await V[n]();
for (let i = 0; i < 2500; i++) { const order = [...names].sort(() => Math.random() - 0.5); for (const n of order) { const s = process.hrtime.bigint(); await V[n](); ns[n].push(Number(process.hrtime.bigint() - s)); } }
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const n of names) console.log(n.padEnd(8), (med(ns[n]) / 1000).toFixed(1), (med(ns[n]) / med(ns.bare)).toFixed(3));
server.close();
