// Two live runs in a row against a sandbox that holds a user's resources under the very names and
// ids the suite's seed draws (README, "Live safety"): the suite, as a `server` target, must leave
// them untouched (not renamed, no login flow started, not deleted), and both runs must pass.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOpenApiDocument, type OpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { createRequestChecker } from '@browser-cloud/request-checker';
import {
  DEFAULT_FIXTURE,
  DEFAULT_FIXTURE_REFS as R,
  type RunningSandbox,
  type SandboxFixture,
  startSandbox,
} from '@browser-cloud/sandbox';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { derivedSeed } from '../src/engine/plan.js';
import { caseArbitraries } from '../src/engine/request-cases.js';
import { exampleResources, knownValues, type Resources, resourcesFrom } from '../src/engine/resources.js';
import { documentWithProfileOperations } from '../src/engine/test-support/profile-document.js';
import { runEveryPlan } from '../src/engine/test-support/run-plans.js';
import { DEFAULT_SEED, pinnedSeeds } from './seeds.mjs';
import { sandboxResources } from './targets.mjs';

const RUNNER = fileURLToPath(new URL('./run-contract.mjs', import.meta.url));
const RUNS = 20;
const SEEDS = [...new Set([DEFAULT_SEED, ...pinnedSeeds()])];
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The path values of each collection that the generated valid cases of the run's seeds draw when
 * nothing holds them back: the same arbitraries, sampled with the seeds the suite derives, so the
 * values are exactly those its cases would send.
 */
function drawnValues(document: OpenApiDocument, ...runs: Resources[]): Map<string, Set<string>> {
  const checker = createRequestChecker(document);
  const given = new Set(runs.flatMap((resources) => Object.values(resources)));
  const drawn = new Map<string, Set<string>>();
  for (const [operation, resources] of runs.flatMap((r) => [...operations(document)].map((o) => [o, r] as const))) {
    const { valid } = caseArbitraries(document, operation, checker, knownValues(operation, resources));
    for (const seed of SEEDS) {
      const cases = fc.sample(valid, { seed: derivedSeed(seed, operation.operationId, 'valid'), numRuns: RUNS });
      for (const { name, collection } of operation.parameters.filter((p) => p.in === 'path' && p.collection)) {
        const values = drawn.get(collection!) ?? new Set();
        for (const c of cases) if (!given.has(c.pathParams[name]!)) values.add(c.pathParams[name]!);
        drawn.set(collection!, values);
      }
    }
  }
  return drawn;
}

/**
 * The default fixture plus a user's resources under the drawn values: a profile named each drawn
 * profile value, a connection of each drawn connection id; and `deletable` more profiles.
 */
function plantedFixture(drawn: Map<string, Set<string>>, deletable: readonly string[] = []) {
  const taken = new Set(DEFAULT_FIXTURE.profiles.map((p) => p.name));
  const names = [...(drawn.get('profiles') ?? [])].filter((n) => n.length <= 255 && !taken.has(n));
  const projectId = R.projects.default;
  const createdAt = '2026-10-01T00:00:00Z';
  const profiles = names.map((name, i) => ({ id: `prof_planted_${i}`, name, projectId, createdAt }));
  const connections = [...(drawn.get('connections') ?? [])].map((id) => ({
    id,
    projectId,
    hasStoredCredentials: false,
    recordSession: false,
  }));
  const extra = deletable.map((id) => ({ id, name: id, projectId, createdAt }));
  const fixture = {
    ...DEFAULT_FIXTURE,
    profiles: [...DEFAULT_FIXTURE.profiles, ...profiles, ...extra],
    authConnections: [...DEFAULT_FIXTURE.authConnections, ...connections],
  };
  return { fixture, profiles, connections };
}

/** A sandbox whose clock the test moves on between runs: the login flows of a run end before the next, as the README asks of a live server's connections. */
async function sandboxWith(fixture: SandboxFixture, document?: OpenApiDocument) {
  let offset = 0;
  const now = () => Date.now() + offset;
  const sandbox = await startSandbox({ port: 0, quiet: true, fixture, now, ...(document ? { document } : {}) });
  cleanups.push(() => sandbox.close());
  return { sandbox, later: () => (offset += 3_600_000) };
}

/** What the planted resources and the given profile are now, to compare with what was planted. */
function stateOf(sandbox: RunningSandbox, planted: ReturnType<typeof plantedFixture>) {
  const profiles = planted.profiles.map(({ id }) => sandbox.state.byId(sandbox.state.keyOf('profiles'), id));
  const flows = [...sandbox.state.flows.values()].map((f) => f.connection_id);
  const given = sandbox.state.byId(sandbox.state.keyOf('profiles'), R.profiles.defaultProject.id);
  return {
    profiles: profiles.map((p) => p && { id: p.id, name: p.value['name'], updatedAt: p.value['updated_at'] }),
    connectionsWithFlows: planted.connections.filter(({ id }) => flows.includes(id)).map(({ id }) => id),
    givenName: given?.value['name'],
  };
}

/** The runner as a user runs it on a live server: API_BASE_URL, API_TOKEN and the CONTRACT_* variables only. */
function runner(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const own = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(API|CONTRACT)_/.test(name)));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUNNER], { env: { ...own, NO_COLOR: '1', ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * What a user gives a live run: the fixture's ids and, for a resource the sandbox holds as its
 * examples (one the API workflow test added to the document), the example's id.
 */
const GIVEN = {
  ...exampleResources(operations(loadOpenApiDocument())),
  ...Object.fromEntries(
    Object.entries(sandboxResources(R)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  ),
};

describe("a live run against a server holding a user's resources under the names the seed draws", () => {
  it('leaves them untouched, puts the given profile back, and passes twice in a row', async () => {
    const document = loadOpenApiDocument();
    // As the README asks of a live run: each run gets a fresh profile to delete, should the
    // document delete one (the API workflow test adds a delete; the repository's has none).
    const deletable = ['prof_deletable_first', 'prof_deletable_second'];
    const runs = deletable.map((id) => ({ ...GIVEN, CONTRACT_DELETABLE_PROFILE_ID: id }));
    const drawn = drawnValues(document, ...runs.map((given) => resourcesFrom(given)));
    const planted = plantedFixture(drawn, deletable);
    // Not vacuous: the seed draws names the rename would address, and connection ids a login would.
    expect(planted.profiles.length).toBeGreaterThan(0);
    expect(planted.connections.length).toBeGreaterThan(0);
    const { sandbox, later } = await sandboxWith(planted.fixture);
    const before = stateOf(sandbox, planted);
    const reports = mkdtempSync(join(tmpdir(), 'contract-live-run-'));
    cleanups.push(() => rmSync(reports, { recursive: true, force: true }));
    const env = {
      API_BASE_URL: sandbox.url,
      API_TOKEN: R.tokens.owner,
      CONTRACT_RUNS: String(RUNS),
      CONTRACT_REPORTS_DIR: reports,
    };
    for (const [i, run] of ['first', 'second'].entries()) {
      const { code, output } = await runner({ ...runs[i]!, ...env });
      expect(code, `${run} run:\n${output.slice(-4000)}`).toBe(0);
      expect(stateOf(sandbox, planted), `after the ${run} run`).toEqual(before);
      later();
    }
    expect(before.givenName).toBe(R.profiles.defaultProject.name);
  }, 600_000);

  it('with a read and a delete of a profile added to the document: each deletes only the profile given for it', async () => {
    const document = documentWithProfileOperations();
    // No create in this document: each run deletes the profile it is given, so each gets its own.
    const deletable = ['prof_deletable_first', 'prof_deletable_second'];
    // The given profile's name is read before the renames and put back after them: no CONTRACT_PROFILE_NAME.
    const { CONTRACT_PROFILE_NAME: _learnt, ...given } = GIVEN;
    const runs = deletable.map((id) => resourcesFrom({ ...given, CONTRACT_DELETABLE_PROFILE_ID: id }));
    const drawn = drawnValues(document, ...runs);
    const planted = plantedFixture(drawn, deletable);
    expect(planted.profiles.length).toBeGreaterThan(0);
    const { sandbox, later } = await sandboxWith(planted.fixture, document);
    const before = stateOf(sandbox, planted);
    for (const [run, id] of deletable.entries()) {
      const resources = runs[run]!;
      const failures = await runEveryPlan(document, {
        mode: 'server',
        resources,
        seeds: SEEDS,
        runs: RUNS,
        target: { baseUrl: sandbox.url, token: R.tokens.owner },
        limits: { answerMs: 10_000, streamMs: 500 },
      });
      expect(failures, `run ${run + 1}`).toEqual([]);
      expect(stateOf(sandbox, planted), `after run ${run + 1}`).toEqual(before);
      expect(sandbox.state.byId(sandbox.state.keyOf('profiles'), id), `${id}, given to delete`).toBeUndefined();
      later();
    }
    expect(sandbox.state.byId(sandbox.state.keyOf('profiles'), deletable[1]!)).toBeUndefined();
  }, 600_000);
});
