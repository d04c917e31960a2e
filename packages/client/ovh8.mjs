import { createServer } from 'node:http';
const profile = JSON.stringify({ id: 'prof_1', name: 'renamed', created_at: '2026-10-02T09:12:44Z' });
const server = createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(profile) }); s.end(profile); }); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const headers = { 'content-type': 'application/json', authorization: 'Bearer t' };
const url = `${baseUrl}/profiles/prof_1`;
const V = {
  bare: () => fetch(url, { method: 'PATCH', headers, body: '{"name":"renamed"}' }).then((r) => r.json()),
  hdrObj: () => fetch(url, { method: 'PATCH', headers: new Headers(headers), body: '{"name":"renamed"}' }).then((r) => r.json()),
  extras: () => fetch(url, { method: 'PATCH', headers, body: '{"name":"renamed"}', redirect: 'follow', signal: null }).then((r) => r.json()),
  text: () => fetch(url, { method: 'PATCH', headers, body: '{"name":"renamed"}' }).then((r) => r.text()).then((t) => JSON.parse(t)),
  stringify: () => fetch(url, { method: 'PATCH', headers, body: JSON.stringify({ name: 'renamed' }) }).then((r) => r.json()),
};
const names = Object.keys(V); const ns = Object.fromEntries(names.map((n) => [n, []]));
for (let i = 0; i < 300; i++) for (const n of names) await V[n]();
for (let i = 0; i < 2500; i++) { const order = [...names].sort(() => Math.random() - 0.5); for (const n of order) { const s = process.hrtime.bigint(); await V[n](); ns[n].push(Number(process.hrtime.bigint() - s)); } }
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const n of names) console.log(n.padEnd(10), (med(ns[n]) / 1000).toFixed(1), (med(ns[n]) / med(ns.bare)).toFixed(3));
server.close();
