// The cases of one operation, planned from the operations model, in the order the README gives.
// Invalid cases come before the valid ones so that a DELETE's resource still exists for them.
// Generated cases run with fast-check: seeded, a failing one shrunk and reported with a curl command.
import type { OpenApiDocument, Operation } from '@browser-cloud/openapi-document';
import type { RequestChecker } from '@browser-cloud/request-checker';
import fc from 'fast-check';
import { MOCK_ONLY, STATEFUL_ONLY } from '../../scripts/reports.mjs';
import type { callClient } from '../harness/clients.js';
import type { TargetMode } from '../harness/target.js';
import { type ExchangeLimits, type ExchangeTarget, exchange } from './exchange.js';
import { Broken, type DocumentValidator } from './judge.js';
import { type RequestCase, toCurl } from './request-case.js';
import { caseArbitraries, type InvalidCase, type KnownValues } from './request-cases.js';
import { creatorOf, knownValues, type Resources, resourceVariables } from './resources.js';
import { checkRule, type RuleContext, SEED_PLANS } from './seed-rules.js';

export type CaseKind = 'valid' | 'invalid';

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
}

/** A seed per (run seed, operation, kind): FNV-1a over the three. */
function derivedSeed(seed: number, ...parts: string[]): number {
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
  const arbitraries = caseArbitraries(options.document, operation, options.checker, options.known);
  const arbitrary: fc.Arbitrary<RequestCase> = kind === 'valid' ? arbitraries.valid : arbitraries.invalid;
  const property = fc.asyncProperty(arbitrary, async (c) => {
    const answer = await exchange(target, c, options.limits);
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

export interface PlanSettings extends Omit<RunCasesOptions, 'operation' | 'kind' | 'known' | 'seed'> {
  mode: TargetMode;
  resources: Resources;
  seeds: readonly number[];
  /** Calls the client's method of the operation with a case's values and these request options. */
  callClient?: typeof callClient | undefined;
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
  const route = `${method.toUpperCase()} ${path}`;
  // Filled in by `before` with what the suite created for the cases to delete.
  const resources: Record<string, string> = { ...settings.resources };
  const context: RuleContext = { ...settings, resources, state: new Map() };
  const creator = creatorOf(checker.operations, operation);
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
    const arbitrary = caseArbitraries(document, of, checker, knownValues(of, resources)).addressed;
    return fc.sample(arbitrary, { seed: derivedSeed(seed, operationId, kind), numRuns: 1 })[0]!;
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
        const result = await runGeneratedCases({ ...settings, operation, kind, known, seed });
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
      const answer = await exchange(settings.target, addressed(operation, 'addressed'), settings.limits);
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

  cases.push(...generated('valid', 'valid requests get a documented answer, never a 5xx', []));

  return {
    cases,
    /** Before the cases: creates what a DELETE removes, when the document can create it. */
    async before() {
      if (!creator || !deletable || mode === 'mock') return;
      const answer = await exchange(settings.target, addressed(creator, 'create'), settings.limits);
      const id = (answer.json as { id?: unknown } | undefined)?.id;
      if (answer.status < 300 && typeof id === 'string') resources[deletable] = id;
      else {
        const made = `creating the resource to delete with ${creator.operationId} answered ${answer.status}`;
        notCreated = `${operationId}: ${made}: ${answer.text.slice(0, 200)}`;
      }
    },
    /** After the cases: puts back what they changed. */
    async after() {
      if (mode !== 'mock') await seedPlan?.restore?.(context);
    },
  };
}
