// The cases of one operation, planned from the operations model, in the order the README gives.
// Invalid cases come before the valid ones so that a DELETE's resource still exists for them.
// Generated cases run with fast-check: seeded, a failing one shrunk and reported with a curl command.
import { deref, type OpenApiDocument, type Operation } from '@browser-cloud/openapi-document';
import type { RequestChecker } from '@browser-cloud/request-checker';
import fc from 'fast-check';
import { MOCK_ONLY, STATEFUL_ONLY } from '../../scripts/reports.mjs';
import type { callClient } from '../harness/clients.js';
import type { TargetMode } from '../harness/target.js';
import { type Answer, type ExchangeLimits, type ExchangeTarget, exchange } from './exchange.js';
import { Broken, type DocumentValidator } from './judge.js';
import { pathOf, type RequestCase, requestOf, toCurl } from './request-case.js';
import { caseArbitraries, type InvalidCase, type KnownValues, refusalOf } from './request-cases.js';
import {
  createdId,
  creatorOf,
  deleterOf,
  knownValues,
  missingReason,
  readerOf,
  type Resources,
  resourceVariables,
} from './resources.js';
import type { Schema } from './schema-arbitrary.js';
import { checkRule, type RuleContext, SEED_PLANS } from './seed-rules.js';

export type CaseKind = 'valid' | 'invalid';

/**
 * The targets where the suite changes only what it was given or created (README, "Live safety"):
 * a real server, directly or behind Prism. The mock keeps nothing, and the sandbox target's own
 * sandbox is reset around each run.
 */
export const isLive = (mode: TargetMode) => mode === 'server' || mode === 'proxy';

export interface RunCasesOptions {
  document: OpenApiDocument;
  operation: Operation;
  kind: CaseKind;
  checker: RequestChecker;
  validator: DocumentValidator;
  target: ExchangeTarget;
  known?: KnownValues | undefined;
  /** The run's seed; each operation and kind derives its own from it, so shards agree. */
  seed: number;
  runs: number;
  limits?: ExchangeLimits | undefined;
  /** A live target: a request that may change state addresses only `known` values (`caseArbitraries`). */
  live?: boolean | undefined;
  /** Sees each case sent and its answer (the plan records what a case created). */
  onAnswer?: ((c: RequestCase, answer: Answer) => void) | undefined;
}

/** A seed per (run seed, operation, kind): FNV-1a over the three. */
export function derivedSeed(seed: number, ...parts: string[]): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of parts.join('\u0000')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** `ok` and how many cases ran; else the `report` of the shrunk failing case: rule, problems, curl, seeds. */
export async function runGeneratedCases(options: RunCasesOptions) {
  const { operation, kind, target } = options;
  const arbitraries = caseArbitraries(options.document, operation, options.checker, options.known, options);
  const arbitrary: fc.Arbitrary<RequestCase> = kind === 'valid' ? arbitraries.valid : arbitraries.invalid;
  const property = fc.asyncProperty(arbitrary, async (c) => {
    const answer = await exchange(target, c, options.limits);
    options.onAnswer?.(c, answer);
    const expected = kind === 'valid' ? undefined : (c as InvalidCase).expectedStatuses;
    const problems = options.validator.judge(operation, answer, expected);
    if (problems.length > 0) throw new Broken(problems, { answer });
  });
  const seed = derivedSeed(options.seed, operation.operationId, kind);
  // Invalid runs start with every rule broken once, then draw `runs` more.
  const examples = kind === 'invalid' ? arbitraries.everyRule(seed).map((c): [RequestCase] => [c]) : [];
  const details = await fc.check(property, { seed, numRuns: options.runs + examples.length, examples });
  if (!details.failed) return { ok: true, runs: details.numRuns };
  const failing = details.counterexample?.[0] as RequestCase | undefined;
  const error = details.errorInstance;
  const request = kind === 'valid' ? 'a valid request' : `an invalid request (${failing?.rule ?? 'unknown rule'})`;
  const curl = failing && toCurl(failing, target.baseUrl);
  const why =
    error instanceof Broken ? error : new Broken([`the engine failed: ${(error as Error)?.message ?? error}`]);
  const broken = new Broken(why.problems, { ...why.sent, curl });
  const seeds = `seed ${options.seed} (CONTRACT_SEED=${options.seed}), fast-check seed ${seed}`;
  const tries = `after ${details.numRuns} case(s), shrunk ${details.numShrinks} time(s)`;
  const report = broken.report(`${operation.operationId}: ${request} got an answer that breaks the contract`);
  return {
    ok: false,
    runs: details.numRuns,
    report: `${report}\n  ${tries}; ${seeds}, path "${details.counterexamplePath}"`,
  };
}

export interface PlanSettings
  extends Omit<RunCasesOptions, 'operation' | 'kind' | 'known' | 'seed' | 'live' | 'onAnswer'> {
  mode: TargetMode;
  resources: Resources;
  seeds: readonly number[];
  /** Calls the client's method of the operation with a case's values and these request options. */
  callClient?: typeof callClient | undefined;
  /**
   * Told of each resource the cases create (as the DELETE that removes it) and of each one deleted
   * afterwards: the runner deletes what a run that stopped half-way left (scripts/created-resources.mjs).
   */
  ledger?: { created(removal: RequestCase): void; deleted(removal: RequestCase): void } | undefined;
}

export interface PlannedCase {
  title: string;
  /** For a case of one documented status (the coverage rule's), that status. */
  status?: number;
  /** Why the case means nothing on this target: it is listed as not applicable. */
  notApplicable?: string | undefined;
  /** The variables of the resources it needs. */
  needs: readonly string[];
  /** `skip` ends the case for a reason the target's state gives (not a failure of the server). */
  run(skip: (reason: string) => never): Promise<void>;
  timeout?: number;
}

const GENERATED_TIMEOUT = 120_000;
const INVALID_TITLE = 'invalid requests, one broken rule each, get 400 (401 without a token) and an Error body';

export function planOperation(operation: Operation, settings: PlanSettings) {
  const { document, checker, mode, seeds, runs } = settings;
  const { operationId, method, path } = operation;
  const live = isLive(mode);
  const route = `${method.toUpperCase()} ${path}`;
  // Filled in by `before` with what the suite created for the cases to delete.
  const resources: Record<string, string> = { ...settings.resources };
  const context: RuleContext = { ...settings, resources, state: new Map() };
  const creator = creatorOf(document, operation);
  const variables = resourceVariables(operation);
  const deletable = creator && Object.values(variables.path).find((v) => v.includes('_DELETABLE_'));
  let notCreated: string | undefined;
  // The variables of the cases that address the target's resources (not what the suite creates).
  const needs = [...new Set([...Object.values(variables.path), ...Object.values(variables.query)])].filter(
    (variable) => variable !== deletable,
  );
  const [seed = 1] = seeds;
  /** One valid request of `of` on the target's resources. */
  const addressed = (of: Operation, kind: string): RequestCase => {
    if (notCreated) throw new Error(notCreated);
    const arbitrary = caseArbitraries(document, of, checker, knownValues(of, resources), { live }).addressed;
    return fc.sample(arbitrary, { seed: derivedSeed(seed, operationId, kind), numRuns: 1 })[0]!;
  };

  // What the cases create, as the requests that delete it: sent after the cases, whatever they did.
  const created = new Map<string, RequestCase>();
  /** Records what `of` created with `c`, when the document can delete it: an `id` in a 2xx answer. */
  const noteCreated = (of: Operation, c: RequestCase, answer: Answer) => {
    const deleter = deleterOf(document, of);
    const id = createdId(document, of, answer.json);
    if (mode === 'mock' || answer.status >= 300 || id === undefined) return;
    if (!deleter) {
      // A POST on a collection whose items the document addresses created one it cannot delete.
      const collection = of.method === 'post' && checker.operations.some((o) => o.path.startsWith(`${of.path}/{`));
      if (collection)
        console.warn(
          `[contract] ${of.operationId} created ${id}, and the document has no DELETE for it: it is left on the target`,
        );
      return;
    }
    const last = [...deleter.path.matchAll(/\{([^}]+)\}/g)].at(-1)![1]!;
    const removal = requestOf(deleter, { path: { ...c.pathParams, [last]: id } });
    created.set(pathOf(removal), removal);
    settings.ledger?.created(removal);
  };
  const send = async (of: Operation, c: RequestCase) => {
    const answer = await exchange(settings.target, c, settings.limits);
    noteCreated(of, c, answer);
    return answer;
  };

  // A change of a given resource (PATCH, PUT) is undone after the cases when the document can read
  // it: the resource as read before, sent back through the operation's own body.
  const reader =
    !operation.safe && ['patch', 'put'].includes(method) ? readerOf(checker.operations, operation) : undefined;
  let snapshot: { path: Record<string, string>; body: Record<string, unknown> } | undefined;
  const readBefore = async () => {
    const known = knownValues(operation, resources).path ?? {};
    const path = Object.fromEntries(Object.entries(known).map(([name, values]) => [name, values[0]]));
    if (!reader || mode === 'mock' || Object.values(path).some((v) => v === undefined)) return;
    const read = requestOf(reader, { path: path as Record<string, string> });
    if (refusalOf(checker, reader, read) !== undefined) return;
    const answer = await exchange(settings.target, read, settings.limits);
    const schema = operation.body?.schema && (deref(document, operation.body.schema.schema) as Schema);
    const properties = (schema?.properties ?? {}) as Schema;
    if (answer.status >= 300 || typeof answer.json !== 'object' || !answer.json) return;
    const fields = Object.entries(answer.json).filter(([name]) => name in properties);
    if (fields.length === 0) return;
    snapshot = { path: read.pathParams, body: Object.fromEntries(fields) };
  };
  /** Puts back what `readBefore` read; the problem when it cannot. */
  const putBack = async (): Promise<string | undefined> => {
    if (!snapshot) return undefined;
    const restore = requestOf(operation, snapshot);
    const where = `${method.toUpperCase()} ${pathOf(restore)}`;
    if (refusalOf(checker, operation, restore) !== undefined)
      return `${where}: what it read before the cases (${restore.body}) is no valid body of ${operationId}, so it cannot be put back`;
    const answer = await exchange(settings.target, restore, settings.limits);
    return answer.status < 300 ? undefined : `${where}: putting back ${restore.body} answered ${answer.status}`;
  };
  /** The generated cases of `kind`, one case per seed. */
  const generated = (kind: 'valid' | 'invalid', title: string, needs: readonly string[]): PlannedCase[] =>
    seeds.map((seed) => ({
      title: `${title} (${kind === 'invalid' ? 'every rule once, then ' : ''}${runs} cases, seed ${seed})`,
      needs,
      timeout: GENERATED_TIMEOUT,
      async run() {
        if (notCreated) throw new Error(notCreated);
        const known = knownValues(operation, resources);
        const onAnswer = (c: RequestCase, answer: Answer) => noteCreated(operation, c, answer);
        const result = await runGeneratedCases({ ...settings, operation, kind, known, seed, live, onAnswer });
        if (!result.ok) throw new Error(result.report);
      },
    }));

  const seedPlan = SEED_PLANS[operationId];
  const cases: PlannedCase[] = (seedPlan?.rules ?? []).map((rule) => ({
    title: rule.rule,
    notApplicable: mode === 'mock' ? STATEFUL_ONLY : undefined,
    needs: rule.needs,
    async run(skip: (reason: string) => never) {
      const { outcome, message = 'not checkable' } = await checkRule(operationId, rule, context);
      if (outcome === 'skipped') skip(message);
      if (outcome === 'failed') throw new Error(message);
    },
  }));

  cases.push(...generated('invalid', INVALID_TITLE, needs));

  cases.push({
    title: `a valid request ${needs.length > 0 ? `on ${needs.join(', ')}` : 'with the required parameters'} gets a documented answer other than 404: the server routes ${route}`,
    needs,
    async run() {
      const answer = await send(operation, addressed(operation, 'addressed'));
      const problems = settings.validator.judge(operation, answer);
      if (answer.status === 404) {
        const names = needs.join(', ') || 'the request';
        problems.unshift(`status 404: the server does not route ${route}, or ${names} names nothing on it`);
      }
      if (problems.length > 0) throw new Error(`${operationId}: ${problems.join('; ')}`);
    },
  });

  for (const key of Object.keys(operation.responses).filter((k) => k !== 'default')) {
    const status = Number(key.replace(/XX$/, '00'));
    const success = status < 300;
    cases.push({
      status,
      title: `answers ${status} as documented, and the client ${success ? 'returns its result' : `throws an APIError of status ${status}`} (the mock's Prefer header picks the status)`,
      notApplicable: mode === 'mock' ? undefined : `${MOCK_ONLY} (target: ${mode})`,
      needs,
      async run() {
        if (!settings.callClient) throw new Error('no client to call');
        const options = { headers: { Prefer: `code=${status}` } };
        const error = await settings.callClient(operation, addressed(operation, 'addressed'), options).then(
          () => undefined,
          (thrown: { status?: unknown; name?: string; message?: string }) => thrown,
        );
        const got = error ? `${error.name} ${String(error.status)}: ${error.message}` : 'a result';
        if (success && error) throw new Error(`${operationId} ${status}: the client threw ${got}`);
        if (!success && error?.status !== status)
          throw new Error(`${operationId} ${status}: expected an APIError of status ${status}, got ${got}`);
      },
    });
  }

  // On a live target an operation that may change state gets only the resources given or created,
  // so its generated valid cases need them too; a read may address any value.
  const validNeeds = live && !operation.safe ? needs : [];
  cases.push(...generated('valid', 'valid requests get a documented answer, never a 5xx', validNeeds));

  return {
    cases,
    /**
     * Before the cases: creates what a DELETE removes, when the document can create it, and reads
     * what a PATCH or PUT changes, when the document can read it and the resource is given.
     */
    async before() {
      if (missingReason(resources, needs) === undefined) await readBefore();
      if (!creator || !deletable || mode === 'mock') return;
      const create = addressed(creator, 'create');
      const answer = await exchange(settings.target, create, settings.limits);
      noteCreated(creator, create, answer);
      const id = createdId(document, creator, answer.json);
      if (answer.status < 300 && id !== undefined) resources[deletable] = id;
      else {
        const made = `creating the resource to delete with ${creator.operationId} answered ${answer.status}`;
        notCreated = `${operationId}: ${made}: ${answer.text.slice(0, 200)}`;
      }
    },
    /**
     * After the cases, whether they passed or not: deletes what they created and puts back what
     * they changed. What it cannot do fails the run, naming what is left on the target.
     */
    async after() {
      const problems: string[] = [];
      for (const removal of created.values()) {
        const where = `${removal.method} ${pathOf(removal)}`;
        const answer = await exchange(settings.target, removal, settings.limits).catch((error: Error) => error);
        // 404: a case deleted it already.
        if (!(answer instanceof Error) && (answer.status < 300 || answer.status === 404))
          settings.ledger?.deleted(removal);
        else problems.push(`${where}: ${answer instanceof Error ? answer.message : `answered ${answer.status}`}`);
      }
      created.clear();
      const restored = await putBack();
      if (restored) problems.push(restored);
      else if (!snapshot && mode !== 'mock') await seedPlan?.restore?.(context);
      if (problems.length > 0)
        throw new Error(`${operationId}: the run could not leave the target as it found it: ${problems.join('; ')}`);
    },
  };
}
