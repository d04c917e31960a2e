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
import { createHistogram, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
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
const BROWSER = 'br_load';
const HELD_NAME = 'load-held-name';
const CREATED = '2026-01-01T00:00:00Z';
const sourceCount = Math.max(1, Math.ceil(CONFIG.streams / CONFIG.streamsPerSource));
const sourcePath = (i) => `/var/log/load/source-${i}.log`;
const ids = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
const connections = ids('ac_load_', Math.min(CONFIG.loginRounds, 20));
const profiles = ids('prof_load_', CONFIG.renameWorkers);
const fixture = structuredClone(DEFAULT_FIXTURE);
for (const id of connections) {
  fixture.authConnections.push({ id, projectId: PROJECT, hasStoredCredentials: false, recordSession: false });
}
for (const id of profiles) fixture.profiles.push({ id, projectId: PROJECT, name: `${id}-initial`, createdAt: CREATED });
fixture.profiles.push({ id: 'prof_load_holder', projectId: PROJECT, name: HELD_NAME, createdAt: CREATED });
fixture.browsers.push({
  id: BROWSER,
  projectId: PROJECT,
  logs: ids('', sourceCount).map((i) => ({ source: 'path', path: sourcePath(i), lines: [] })),
});

// ---- measurement -----------------------------------------------------------------------------
/** Latencies (in µs, as histograms keep integers), successes, expected 409s and unexpected errors of one kind of call. */
function stat(name) {
  const histogram = createHistogram();
  return {
    name,
    ok: 0,
    expected: 0,
    unexpected: [],
    histogram,
    async time(call) {
      const t0 = performance.now();
      try {
        return await call();
      } finally {
        histogram.record(Math.max(1, Math.round((performance.now() - t0) * 1000)));
      }
    },
  };
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
const control = (path, body) =>
  fetch(`${sandbox.url}/_sandbox${path}`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: deadline,
  });
console.log(`sandbox at ${sandbox.url}; config ${JSON.stringify(CONFIG)}`);
const started = performance.now();

const logins = stat('login');
async function login() {
  for (let round = 0; round < CONFIG.loginRounds && !deadline.aborted; round++) {
    const id = connections[round % connections.length];
    const results = await Promise.allSettled(
      ids('', CONFIG.loginConcurrency).map(() =>
        logins.time(() => client.auth.connections.login(id, {}, { signal: deadline })),
      ),
    );
    const wins = results.filter((r) => r.status === 'fulfilled').length;
    logins.ok += wins;
    for (const r of results.filter((r) => r.status === 'rejected')) {
      if (r.reason instanceof ConflictError) logins.expected++;
      else logins.unexpected.push(String(r.reason));
    }
    if (wins !== 1) logins.unexpected.push(`round ${round}: ${wins} logins succeeded at once (want exactly 1)`);
    const done = await control(`/flows/${id}/complete`);
    if (done.status !== 200) logins.unexpected.push(`completing ${id}: ${done.status}`);
  }
}

const renames = stat('rename');
async function rename(profile, worker) {
  for (let i = 0; i < CONFIG.renamesPerWorker && !deadline.aborted; i++) {
    // Every tenth rename asks for a name another profile holds: that must be a 409.
    const held = i % 10 === 9;
    const name = held ? HELD_NAME : `load-${worker}-${i}`;
    try {
      const body = await renames.time(() => client.profiles.rename(profile, { name }, { signal: deadline }));
      if (held) renames.unexpected.push(`${profile} took the held name`);
      else if (body.name !== name || body.id !== profile)
        renames.unexpected.push(`${profile}: answered ${JSON.stringify(body)}`);
      else renames.ok++;
    } catch (error) {
      if (held && error instanceof ConflictError) renames.expected++;
      else renames.unexpected.push(`${profile}: ${String(error)}`);
    }
  }
}

const appends = stat('append (sandbox)');
async function append() {
  for (let first = 1; first <= CONFIG.lines && !deadline.aborted; first += CONFIG.batch) {
    const now = Date.now();
    const lines = ids('', Math.min(CONFIG.batch, CONFIG.lines - first + 1)).map(
      (k) => `seq=${first + Number(k)} sent=${now}`,
    );
    await Promise.all(
      ids('', sourceCount).map(async (s) => {
        const r = await appends.time(() =>
          control(`/browsers/${BROWSER}/logs`, { source: 'path', path: sourcePath(s), lines }),
        );
        if (r.status === 200) appends.ok++;
        else appends.unexpected.push(`append ${r.status}`);
        await r.arrayBuffer();
      }),
    );
    await sleep(5);
  }
}

const delivery = createHistogram();
/** One follower: every line once, in order, across one reconnect half-way (Last-Event-ID). */
async function follow(index) {
  const path = sourcePath(index % sourceCount);
  const seen = [];
  const errors = [];
  let lastEventId;
  let connections = 0;
  while (seen.length < CONFIG.lines && !deadline.aborted && errors.length === 0) {
    connections++;
    const options = { signal: deadline, ...(lastEventId === undefined ? {} : { lastEventId }) };
    const stream = client.browsers.logs.stream(BROWSER, { source: 'path', path, follow: true }, options);
    try {
      for await (const event of stream) {
        const match = /^seq=(\d+) sent=(\d+)$/.exec(event.message);
        if (!match) {
          errors.push(`unexpected message ${event.message}`);
          continue;
        }
        seen.push(Number(match[1]));
        delivery.record(Math.max(1, Date.now() - Number(match[2])) * 1000);
        if (seen.length >= CONFIG.lines || (connections === 1 && seen.length === Math.floor(CONFIG.lines / 2))) break;
      }
    } catch (error) {
      if (!deadline.aborted) errors.push(String(error));
    } finally {
      lastEventId = stream.lastEventId;
      await stream.close();
    }
  }
  const unique = new Set(seen);
  return {
    connections,
    received: seen.length,
    lost: CONFIG.lines - [...unique].filter((n) => n >= 1 && n <= CONFIG.lines).length,
    duplicated: seen.length - unique.size,
    outOfOrder: seen.filter((n, i) => i > 0 && n <= seen[i - 1]).length,
    errors: errors.map((e) => `stream ${index}: ${e}`),
  };
}

const followers = ids('', CONFIG.streams).map((i) => follow(Number(i)));
// Let the streams connect before the lines start flowing; resume covers any that are late.
await sleep(100);
const [streams] = await Promise.all([Promise.all(followers), login(), append(), ...profiles.map(rename)]);
const seconds = (performance.now() - started) / 1000;
await sandbox.close();

// ---- report ---------------------------------------------------------------------------------------
const ms = (h) => [50, 95, 99, 100].map((p) => (h.count === 0 ? '-' : (h.percentile(p) / 1000).toFixed(1))).join('/');
for (const s of [logins, renames, appends]) {
  const rate = (s.histogram.count / seconds).toFixed(0);
  console.log(
    `${s.name}: ${s.histogram.count} requests, ${s.ok} ok, ${s.expected} expected 409, ${s.unexpected.length} unexpected; ${rate}/s; p50/p95/p99/max ${ms(s.histogram)} ms`,
  );
}
const total = (key) => streams.reduce((sum, r) => sum + (Array.isArray(r[key]) ? r[key].length : r[key]), 0);
const [lost, duplicated, outOfOrder] = [total('lost'), total('duplicated'), total('outOfOrder')];
console.log(
  `streams: ${CONFIG.streams} over ${total('connections')} connections, ${total('received')} of ${CONFIG.streams * CONFIG.lines} events (${(total('received') / seconds).toFixed(0)}/s), lost ${lost}, duplicated ${duplicated}, out of order ${outOfOrder}, errors ${total('errors')}; delivery p50/p95/p99/max ${ms(delivery)} ms`,
);
const unexpected = [
  ...logins.unexpected,
  ...renames.unexpected,
  ...appends.unexpected,
  ...streams.flatMap((r) => r.errors),
];
for (const line of unexpected.slice(0, 20)) console.error(`unexpected: ${line}`);
const late = deadline.aborted ? ` (deadline of ${CONFIG.deadlineMs} ms reached)` : '';
console.log(
  `${seconds.toFixed(2)} s; lost ${lost}, duplicated ${duplicated}, unexpected errors ${unexpected.length}${late}`,
);
process.exitCode = deadline.aborted || unexpected.length > 0 || lost + duplicated + outOfOrder > 0 ? 1 : 0;
