import { createServer } from 'node:http';
import createFetchClient from 'openapi-fetch';
const { PendingRequest, transport } = await import(process.cwd() + '/dist/transport.js');
const profile = JSON.stringify({ id: 'prof_1', name: 'renamed', created_at: '2026-10-02T09:12:44Z' });
const server = createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(profile) }); s.end(profile); }); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const headers = { 'content-type': 'application/json', authorization: 'Bearer t' };
const url = `${baseUrl}/profiles/prof_1`;
const raw = createFetchClient({ baseUrl, fetch: (r) => fetch(r.url, r.init()), headers: { authorization: 'Bearer t' } });
const p = { params: { path: { id_or_name: 'prof_1' } }, body: { name: 'renamed' } };
const V = {
  bare: () => fetch(url, { method: 'PATCH', headers, body: '{"name":"renamed"}' }).then((r) => r.json()),
  pend: () => raw.PATCH('/profiles/{id_or_name}', { ...p, Request: PendingRequest }),
};
const v = V[process.argv[2]];
for (let i = 0; i < 1000; i++) await v();
const s = process.hrtime.bigint(); const cpu0 = process.cpuUsage();
for (let i = 0; i < 10000; i++) await v();
const cpu = process.cpuUsage(cpu0);
console.log(process.argv[2], (Number(process.hrtime.bigint() - s) / 10000 / 1000).toFixed(1), 'µs wall', ((cpu.user + cpu.system) / 10000).toFixed(1), 'µs cpu (incl. server)');
server.close();
