// The live-safety rule (README, "Live safety"): on a live target no case sends a request that may
// change state to a resource the run was not given (a CONTRACT_* variable) and did not create.
// Every operation of a document with a create, a rename, a read and a delete of a profile is
// planned as the suite plans it and run against a server that records each request.
import { type Operation, operations, resources } from '@browser-cloud/openapi-document';
import { createRequestChecker, invalidPart, isRefusal } from '@browser-cloud/request-checker';
import { DEFAULT_FIXTURE_REFS as R, startSandbox } from '@browser-cloud/sandbox';
import { startHostileServer } from '@browser-cloud/test-servers';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEED } from '../../scripts/seeds.mjs';
import type { TargetMode } from '../harness/target.js';
import { createDocumentValidator } from './judge.js';
import { isLive, planOperation } from './plan.js';
import { caseArbitraries, LiveSafetyError } from './request-cases.js';
import { exampleResources, knownValues, type Resources } from './resources.js';
import { documentWithProfileOperations } from './test-support/profile-document.js';
import { runEveryPlan } from './test-support/run-plans.js';

const document = documentWithProfileOperations(true);
const checker = createRequestChecker(document);
const find = (operationId: string) => [...operations(document)].find((o) => o.operationId === operationId)!;
/**
 * What a user gives a live run: every variable of the document, but the deletable profile (the
 * suite creates it). A resource the API workflow test added is given as its example.
 */
const EXAMPLES = Object.entries(exampleResources(operations(document)));
const isDeletable = ([name]: [string, string]) => name.startsWith('CONTRACT_DELETABLE_');
const GIVEN: Resources = {
  ...Object.fromEntries(EXAMPLES.filter((entry) => !isDeletable(entry))),
  CONTRACT_CONNECTION_ID: 'ac_given_login',
  CONTRACT_REAUTH_CONNECTION_ID: 'ac_given_reauth',
  CONTRACT_PROFILE_ID: 'prof_given',
  CONTRACT_PROFILE_NAME: 'given-profile',
  CONTRACT_TAKEN_PROFILE_NAME: 'given-taken-profile',
  CONTRACT_PROXY_ID: 'prx_given',
  CONTRACT_PROXY_NAME: 'given-proxy',
  CONTRACT_BROWSER_ID: 'br_given',
  CONTRACT_LOG_PATH: '/var/log/given.log',
  CONTRACT_LOG_SUPERVISOR_PROCESS: 'given-process',
};
/** What the server below makes: `made_<n>`, or a number from 900001 where the id is an integer. */
const CREATED = /^(made_\d+|9\d{5})$/;
const PATH_REFUSED = invalidPart('path', []).body.message;
const model = resources(document);

type Sent = { method: string; url: string };

/**
 * Every request the planned cases of every operation send on `mode`, to a server that makes an
 * item for each create of the document (a POST the checker routes to one: `made_<n>`, or an
 * integer where the id's schema says so) and answers anything else 200 or 204: the cases fail on
 * its answers, which does not matter here: each request is sent as to a real server.
 */
async function sentBy(mode: TargetMode, resources: Resources): Promise<{ sent: Sent[]; made: string[] }> {
  /** The path of each item made that the document can delete. */
  const made: string[] = [];
  const server = await startHostileServer((request, response) => {
    request.resume();
    const json = { 'content-type': 'application/json' };
    const match = checker.route(request.method ?? '', (request.url ?? '').split('?')[0]!);
    const role = isRefusal(match) ? undefined : model.roleOf(match.operation);
    if (role?.action === 'create') {
      const { properties = {} } = (role.resource.schema?.schema ?? {}) as { properties?: Record<string, any> };
      const integer = properties[role.resource.idField]?.type === 'integer';
      const n = made.length + 1;
      const id = integer ? 900_000 + n : `made_${n}`;
      // What the document can delete the run must delete; of the rest it warns (a test below).
      if (role.resource.crud.delete) made.push(`${(request.url ?? '').split('?')[0]}/${id}`);
      response.writeHead(201, json).end(JSON.stringify({ id, name: 'made', created_at: '2026-01-01T00:00:00Z' }));
    } else if (request.method === 'DELETE') response.writeHead(204).end();
    else response.writeHead(200, json).end('{}');
  });
  try {
    await runEveryPlan(document, {
      mode,
      resources,
      seeds: [DEFAULT_SEED],
      runs: 8,
      target: { baseUrl: server.url, token: 'sk_live_safety' },
      limits: { answerMs: 5_000, streamMs: 50 },
    });
    return { sent: server.requests.map(({ method, url }) => ({ method, url })), made };
  } finally {
    await server.close();
  }
}

/** The operation a request is, and its path values, as the checker reads them. */
function read({ method, url }: Sent): { operation: Operation; values: string[]; pathRefused: boolean } | undefined {
  const match = checker.route(method, url.split('?')[0]!);
  if (isRefusal(match)) return undefined;
  const checked = checker.check(match, { search: '', headers: {}, body: undefined });
  const values = Object.values(match.path);
  return {
    operation: match.operation,
    values,
    pathRefused: isRefusal(checked) && checked.body.message === PATH_REFUSED,
  };
}

/** The requests that may change state, address a value neither given nor created, and keep the path's rules. */
function unsafeOnUngiven(sent: readonly Sent[], given: Resources): string[] {
  const allowed = new Set(Object.values(given));
  return sent.flatMap((request) => {
    const r = read(request);
    if (!r || r.operation.safe || r.pathRefused) return [];
    return r.values.every((v) => allowed.has(v) || CREATED.test(v)) ? [] : [`${request.method} ${request.url}`];
  });
}

describe('on a live target', () => {
  it('server and proxy are live, the mock and the reset sandbox target are not', () => {
    expect((['server', 'proxy', 'sandbox', 'mock'] as const).map(isLive)).toEqual([true, true, false, false]);
  });

  it('no case sends a POST, PATCH or DELETE to a resource neither given nor created; reads still try generated values', async () => {
    const { sent } = await sentBy('server', GIVEN);
    expect(unsafeOnUngiven(sent, GIVEN)).toEqual([]);
    // Not vacuous: the unsafe operations' generated cases ran, on the given and created resources.
    const unsafe = sent.filter((s) => read(s)?.operation.safe === false && !read(s)?.pathRefused);
    for (const operationId of ['createProfile', 'renameProfile', 'deleteProfile', 'loginAuthConnection'])
      expect(unsafe.filter((s) => read(s)!.operation.operationId === operationId).length, operationId).toBeGreaterThan(
        8,
      );
    // Invalid cases that break a path value's rule may carry any value: the checker refuses them.
    expect(sent.some((s) => read(s)?.operation.safe === false && read(s)?.pathRefused)).toBe(true);
    // A read addresses generated values as well as the given ones.
    const reads = sent.filter((s) => read(s)?.operation.operationId === 'getProfile').map((s) => read(s)!.values[0]);
    expect(reads).toContain(GIVEN.CONTRACT_PROFILE_ID);
    expect(reads.filter((v) => v !== GIVEN.CONTRACT_PROFILE_ID && !CREATED.test(v!)).length).toBeGreaterThan(0);
  });

  it('what the cases create is deleted after them, the profile made for the delete included', async () => {
    const { sent, made } = await sentBy('server', GIVEN);
    expect(made.filter((path) => path.startsWith('/profiles/')).length).toBeGreaterThan(8);
    const deleted = new Set(sent.filter((s) => s.method === 'DELETE').map((s) => s.url.split('?')[0]));
    expect(made.filter((path) => !deleted.has(path))).toEqual([]);
  });

  it('a case of an operation that is not safe does not run without its resource: it needs the variable', () => {
    const validNeeds = (operationId: string) =>
      planOperation(find(operationId), {
        document,
        checker,
        validator: createDocumentValidator(document),
        mode: 'server',
        resources: {},
        seeds: [DEFAULT_SEED],
        runs: 1,
        target: { baseUrl: 'http://127.0.0.1:9', token: 'sk_live_safety' },
      }).cases.find((c) => c.title.startsWith('valid requests'))!.needs;
    expect(validNeeds('renameProfile')).toEqual(['CONTRACT_PROFILE_ID']);
    // A read's generated cases need nothing.
    expect(validNeeds('getProfile')).toEqual([]);
  });

  it('the cases of an operation that is not safe refuse to be built without a given value, naming the parameter', () => {
    const rename = find('renameProfile');
    const none = knownValues(rename, {});
    expect(() => caseArbitraries(document, rename, checker, none, { live: true })).toThrow(LiveSafetyError);
    expect(() => caseArbitraries(document, rename, checker, none, { live: true })).toThrow(
      /renameProfile changes what it addresses \(PATCH\).*path parameter id_or_name/,
    );
    // Off a live target, or for a read, generated values are fine.
    expect(() => caseArbitraries(document, rename, checker, none)).not.toThrow();
    expect(() => caseArbitraries(document, find('getProfile'), checker, none, { live: true })).not.toThrow();
  });

  it('valid and invalid cases of every operation that is not safe address the given values, but a broken path value', () => {
    // Each deletable resource as the run would have made it: an id like its example.
    const made = Object.fromEntries(EXAMPLES.filter(isDeletable));
    for (const operation of [...operations(document)].filter((o) => !o.safe)) {
      const known = knownValues(operation, { ...GIVEN, ...made });
      const allowed = Object.values(known.path ?? {}).flat();
      const { valid, invalid, everyRule } = caseArbitraries(document, operation, checker, known, { live: true });
      for (const c of fc.sample(valid, { seed: DEFAULT_SEED, numRuns: 40 }))
        expect(
          Object.values(c.pathParams).every((v) => allowed.includes(v)),
          operation.operationId,
        ).toBe(true);
      for (const c of [...everyRule(DEFAULT_SEED), ...fc.sample(invalid, { seed: DEFAULT_SEED, numRuns: 40 })]) {
        const onGiven = Object.values(c.pathParams).every((v) => allowed.includes(v));
        expect(onGiven || c.rule?.startsWith('path '), `${operation.operationId}: ${c.rule}`).toBe(true);
      }
      // The query values that name something too (a log path): given, or left out.
      for (const [name, values] of Object.entries(known.query ?? {}))
        for (const c of fc.sample(valid, { seed: DEFAULT_SEED, numRuns: 20 }))
          if (c.query[name] !== undefined) expect(values).toContain(c.query[name]);
    }
  });

  it('says what a create leaves on the target when the document has no DELETE for it', async () => {
    const withoutDelete = documentWithProfileOperations(true) as { paths: Record<string, Record<string, unknown>> };
    delete withoutDelete.paths['/profiles/{id_or_name}']!.delete;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const server = await startHostileServer((request, response) => {
      request.resume();
      response.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"prof_left_behind"}');
    });
    try {
      const doc = withoutDelete as unknown as typeof document;
      const create = [...operations(doc)].find((o) => o.operationId === 'createProfile')!;
      const plan = planOperation(create, {
        document: doc,
        checker: createRequestChecker(doc),
        validator: createDocumentValidator(doc),
        mode: 'server',
        resources: {},
        seeds: [DEFAULT_SEED],
        runs: 1,
        target: { baseUrl: server.url, token: 'sk_live_safety' },
      });
      await plan.cases
        .find((c) => c.title.includes('the server routes'))!
        .run(() => {
          throw new Error('not skipped');
        })
        .catch(() => undefined);
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('createProfile created prof_left_behind, and the document has no DELETE for it'),
      );
    } finally {
      warn.mockRestore();
      await server.close();
    }
  });

  it('the same cases off a live target address generated values too: the rule is what keeps a live run safe', async () => {
    const { sent } = await sentBy('sandbox', GIVEN);
    expect(unsafeOnUngiven(sent, GIVEN).length).toBeGreaterThan(0);
  });
});

describe('a PATCH of a given resource that the document can read (GET on its path)', () => {
  it('is put back after the cases as it was read before them; one its body cannot restore fails the run, naming it', async () => {
    const readable = documentWithProfileOperations();
    const sandbox = await startSandbox({ port: 0, quiet: true, document: readable });
    const nameOf = (id: string) => sandbox.state.byId(sandbox.state.keyOf('profiles'), id)?.value['name'];
    /** The rename's plan on `id`, its valid generated cases run (they rename it), before and after. */
    const renamed = async (id: string) => {
      const plan = planOperation([...operations(readable)].find((o) => o.operationId === 'renameProfile')!, {
        document: readable,
        checker: createRequestChecker(readable),
        validator: createDocumentValidator(readable),
        mode: 'server',
        resources: { CONTRACT_PROFILE_ID: id },
        seeds: [DEFAULT_SEED],
        runs: 5,
        target: { baseUrl: sandbox.url, token: R.tokens.owner },
      });
      await plan.before();
      await plan.cases
        .find((c) => c.title.startsWith('valid requests'))!
        .run(() => {
          throw new Error('not skipped');
        });
      return plan;
    };
    try {
      const { id, name } = R.profiles.defaultProject;
      const named = await renamed(id);
      expect(nameOf(id)).not.toBe(name);
      await named.after();
      expect(nameOf(id)).toBe(name);
      // A profile without a name: the rename's body takes no null, so the run cannot undo it.
      const unnamed = await renamed(R.profiles.unnamed.id);
      expect(nameOf(R.profiles.unnamed.id)).not.toBeNull();
      await expect(unnamed.after()).rejects.toThrow(
        /renameProfile: the run could not leave the target as it found it: PATCH \/profiles\/prof_default_unnamed: .*"name":null.* cannot be put back/,
      );
    } finally {
      await sandbox.close();
    }
  });
});
