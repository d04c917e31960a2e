#!/usr/bin/env node
// Load run against a sandbox of its own on 127.0.0.1: concurrent logins, renames and many
// parallel followed log streams (with one forced reconnect each), all at once. Bounded in count
// and time; prints throughput, latency percentiles, lost/duplicated events and errors, and exits
// non-zero when anything unexpected happened.
//
//   npm run load -w @browser-cloud/contract-tests
//   LOAD_STREAMS=50 LOAD_LINES=2000 LOAD_DEADLINE_MS=60000 npm run load -w @browser-cloud/contract-tests
// It lives here, not in the sandbox, because it drives the sandbox through the SDK: the server
// does not depend on the client.
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { ConflictError, createClient } from '@browser-cloud/client';
import { DEFAULT_FIXTURE, startSandbox } from '@browser-cloud/sandbox';

const num = (name, fallback) => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a non-negative integer`);
  return Number(v);
};
const CONFIG = {
  loginRounds: num('LOAD_LOGIN_ROUNDS', 40),
  loginConcurrency: num('LOAD_LOGIN_CONCURRENCY', 20),
  renameWorkers: num('LOAD_RENAME_WORKERS', 20),
  renamesPerWorker: num('LOAD_RENAMES_PER_WORKER', 50),
  streams: num('LOAD_STREAMS', 50),
  streamsPerSource: num('LOAD_STREAMS_PER_SOURCE', 10),
  lines: num('LOAD_LINES', 2000),
  batch: num('LOAD_BATCH', 100),
  deadlineMs: num('LOAD_DEADLINE_MS', 60_000),
};

// ---- fixture: the built-in one plus what the load needs ------------------------------------
const PROJECT = 'proj_default';
const LOAD_BROWSER = 'br_load';
const sourceCount = Math.max(1, Math.ceil(CONFIG.streams / CONFIG.streamsPerSource));
const sourcePath = (i) => `/var/log/load/source-${i}.log`;
const fixture = structuredClone(DEFAULT_FIXTURE);
const loginConnections = Array.from({ length: Math.min(CONFIG.loginRounds, 20) }, (_, i) => `ac_load_${i}`);
for (const id of loginConnections) {
  fixture.authConnections.push({ id, projectId: PROJECT, hasStoredCredentials: false, recordSession: false });
}
const renameProfiles = Array.from({ length: CONFIG.renameWorkers }, (_, i) => `prof_load_${i}`);
for (const id of renameProfiles)
  fixture.profiles.push({ id, projectId: PROJECT, name: `${id}-initial`, createdAt: '2026-01-01T00:00:00Z' });
const HELD_NAME = 'load-held-name';
fixture.profiles.push({
  id: 'prof_load_holder',
  projectId: PROJECT,
  name: HELD_NAME,
  createdAt: '2026-01-01T00:00:00Z',
});
fixture.browsers.push({
  id: LOAD_BROWSER,
  projectId: PROJECT,
  logs: Array.from({ length: sourceCount }, (_, i) => ({ source: 'path', path: sourcePath(i), lines: [] })),
});

// ---- measurement -----------------------------------------------------------------------------
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
class Stat {
  constructor(name) {
    this.name = name;
    this.latencies = [];
    this.ok = 0;
    this.expected = 0; // expected failures (409 of a losing login, 409 of a held name)
    this.unexpected = [];
  }
  async time(fn) {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.latencies.push(performance.now() - t0);
    }
  }
  row(elapsedMs) {
    const s = [...this.latencies].sort((a, b) => a - b);
    const f = (v) => (Number.isNaN(v) ? '-' : v.toFixed(1));
    return {
      operation: this.name,
      requests: s.length,
      ok: this.ok,
      'expected 409': this.expected,
      unexpected: this.unexpected.length,
      'req/s': (s.length / (elapsedMs / 1000)).toFixed(0),
      'p50 ms': f(percentile(s, 50)),
      'p95 ms': f(percentile(s, 95)),
      'p99 ms': f(percentile(s, 99)),
      'max ms': f(s.at(-1) ?? NaN),
    };
  }
}

// ---- run ---------------------------------------------------------------------------------------
const sandbox = await startSandbox({
  port: 0,
  host: '127.0.0.1',
  fixture,
  keepAliveMs: 1000,
  retryMs: 100,
  quiet: true,
});
const client = createClient({
  baseUrl: sandbox.url,
  token: sandbox.fixture.tokens.owner,
  maxRetries: 0,
  timeoutMs: 30_000,
});
const deadline = AbortSignal.timeout(CONFIG.deadlineMs);
// Every request and stream listens to the one deadline.
setMaxListeners(0, deadline);
const sandboxPost = (path, body) =>
  fetch(`${sandbox.url}/_sandbox${path}`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: deadline,
  });

console.log(`sandbox at ${sandbox.url}; config ${JSON.stringify(CONFIG)}`);
const started = performance.now();

const loginStat = new Stat('login');
async function logins() {
  for (let round = 0; round < CONFIG.loginRounds && !deadline.aborted; round++) {
    const id = loginConnections[round % loginConnections.length];
    const results = await Promise.allSettled(
      Array.from({ length: CONFIG.loginConcurrency }, () =>
        loginStat.time(() => client.auth.connections.login(id, {}, { signal: deadline })),
      ),
    );
    const wins = results.filter((r) => r.status === 'fulfilled').length;
    const conflicts = results.filter((r) => r.status === 'rejected' && r.reason instanceof ConflictError).length;
    loginStat.ok += wins;
    loginStat.expected += conflicts;
    for (const r of results)
      if (r.status === 'rejected' && !(r.reason instanceof ConflictError)) loginStat.unexpected.push(String(r.reason));
    if (wins !== 1) loginStat.unexpected.push(`round ${round}: ${wins} logins succeeded at once (want exactly 1)`);
    const done = await sandboxPost(`/flows/${id}/complete`);
    if (done.status !== 200) loginStat.unexpected.push(`completing ${id}: ${done.status}`);
  }
}

const renameStat = new Stat('rename');
async function renames() {
  await Promise.all(
    renameProfiles.map(async (profile, w) => {
      for (let i = 0; i < CONFIG.renamesPerWorker && !deadline.aborted; i++) {
        // Every tenth rename asks for a name another profile holds: that must be a 409.
        const held = i % 10 === 9;
        const name = held ? HELD_NAME : `load-${w}-${i}`;
        try {
          const body = await renameStat.time(() => client.profiles.rename(profile, { name }, { signal: deadline }));
          if (held) renameStat.unexpected.push(`${profile} took the held name`);
          else if (body.name !== name || body.id !== profile)
            renameStat.unexpected.push(`${profile}: answered ${JSON.stringify(body)}`);
          else renameStat.ok++;
        } catch (error) {
          if (held && error instanceof ConflictError) renameStat.expected++;
          else renameStat.unexpected.push(`${profile}: ${String(error)}`);
        }
      }
    }),
  );
}

const appendStat = new Stat('append (sandbox)');
async function appender() {
  for (let first = 1; first <= CONFIG.lines && !deadline.aborted; first += CONFIG.batch) {
    const last = Math.min(CONFIG.lines, first + CONFIG.batch - 1);
    await Promise.all(
      Array.from({ length: sourceCount }, async (_, s) => {
        const now = Date.now();
        const lines = Array.from({ length: last - first + 1 }, (_, k) => `seq=${first + k} sent=${now}`);
        const r = await appendStat.time(() =>
          sandboxPost(`/browsers/${LOAD_BROWSER}/logs`, { source: 'path', path: sourcePath(s), lines }),
        );
        if (r.status === 200) appendStat.ok++;
        else appendStat.unexpected.push(`append ${r.status}`);
        await r.arrayBuffer();
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const streamResults = [];
const deliveryLatencies = [];
async function consumer(index) {
  const path = sourcePath(index % sourceCount);
  const seen = [];
  const errors = [];
  // Half-way through, the consumer drops its connection and resumes with Last-Event-ID.
  const reconnectAt = Math.floor(CONFIG.lines / 2);
  let lastEventId;
  let connections = 0;
  while (seen.length < CONFIG.lines && !deadline.aborted) {
    connections++;
    const stream = client.browsers.logs.stream(
      LOAD_BROWSER,
      { source: 'path', path, follow: true },
      {
        signal: deadline,
        ...(lastEventId === undefined ? {} : { lastEventId }),
      },
    );
    try {
      for await (const event of stream) {
        const match = /^seq=(\d+) sent=(\d+)$/.exec(event.message);
        if (!match) {
          errors.push(`unexpected message ${event.message}`);
          continue;
        }
        seen.push(Number(match[1]));
        deliveryLatencies.push(Date.now() - Number(match[2]));
        if (seen.length >= CONFIG.lines) break;
        if (connections === 1 && seen.length === reconnectAt) break;
      }
    } catch (error) {
      if (!deadline.aborted) errors.push(String(error));
    } finally {
      lastEventId = stream.lastEventId;
      await stream.close();
    }
    if (errors.length > 0) break;
  }
  const unique = new Set(seen);
  let outOfOrder = 0;
  for (let i = 1; i < seen.length; i++) if (seen[i] <= seen[i - 1]) outOfOrder++;
  streamResults.push({
    index,
    connections,
    received: seen.length,
    lost: CONFIG.lines - [...unique].filter((n) => n >= 1 && n <= CONFIG.lines).length,
    duplicated: seen.length - unique.size,
    outOfOrder,
    errors,
  });
}

const consumers = Array.from({ length: CONFIG.streams }, (_, i) => consumer(i));
// Let the streams connect before the lines start flowing; resume covers any that are late.
await new Promise((resolve) => setTimeout(resolve, 100));
await Promise.all([logins(), renames(), appender(), ...consumers]);
const elapsed = performance.now() - started;
await sandbox.close();

// ---- report ---------------------------------------------------------------------------------------
console.table([loginStat.row(elapsed), renameStat.row(elapsed), appendStat.row(elapsed)]);
const totals = streamResults.reduce(
  (t, r) => ({
    received: t.received + r.received,
    lost: t.lost + r.lost,
    duplicated: t.duplicated + r.duplicated,
    outOfOrder: t.outOfOrder + r.outOfOrder,
    errors: t.errors + r.errors.length,
    connections: t.connections + r.connections,
  }),
  { received: 0, lost: 0, duplicated: 0, outOfOrder: 0, errors: 0, connections: 0 },
);
const lat = [...deliveryLatencies].sort((a, b) => a - b);
console.table([
  {
    streams: CONFIG.streams,
    connections: totals.connections,
    'events expected': CONFIG.streams * CONFIG.lines,
    received: totals.received,
    lost: totals.lost,
    duplicated: totals.duplicated,
    'out of order': totals.outOfOrder,
    errors: totals.errors,
    'events/s': (totals.received / (elapsed / 1000)).toFixed(0),
    'delivery p50 ms': percentile(lat, 50),
    'p95 ms': percentile(lat, 95),
    'p99 ms': percentile(lat, 99),
    'max ms': lat.at(-1),
  },
]);
const unexpected = [
  ...loginStat.unexpected,
  ...renameStat.unexpected,
  ...appendStat.unexpected,
  ...streamResults.flatMap((r) => r.errors.map((e) => `stream ${r.index}: ${e}`)),
];
for (const line of unexpected.slice(0, 20)) console.error(`unexpected: ${line}`);
const failed =
  deadline.aborted || unexpected.length > 0 || totals.lost > 0 || totals.duplicated > 0 || totals.outOfOrder > 0;
console.log(
  `${(elapsed / 1000).toFixed(2)} s; lost ${totals.lost}, duplicated ${totals.duplicated}, unexpected errors ${unexpected.length}` +
    (deadline.aborted ? ` (deadline of ${CONFIG.deadlineMs} ms reached)` : ''),
);
process.exitCode = failed ? 1 : 0;
