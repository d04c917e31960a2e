// Runs the generated cases of one operation against a target with fast-check: seeded, a failing
// case shrunk and reported with the operation, the rule and a curl command that sends it again.
import type { OpenApiDocument, Operation } from '@browser-cloud/openapi-document';
import type { RequestChecker } from '@browser-cloud/sandbox';
import fc from 'fast-check';
import { Broken, type DocumentValidator } from './judge.js';
import { type ExchangeLimits, type ExchangeTarget, exchange } from './exchange.js';
import { type RequestCase, toCurl } from './request-case.js';
import { caseArbitraries, type InvalidCase, type KnownValues } from './request-cases.js';

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
export function derivedSeed(seed: number, ...parts: string[]): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of parts.join('\u0000')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/**
 * `ok`, and how many cases ran before the end or the first failure; else the `report` of the
 * (shrunk) failing case: operation, rule, problems, curl, seeds.
 */
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
