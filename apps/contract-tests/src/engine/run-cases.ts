// Runs the generated cases of one operation against a target with fast-check: seeded and
// reproducible, a failing case shrunk to a small one and reported with the operation, the rule and
// a curl command that sends it again.
import type { OpenApiDocument, Operation } from '@browser-cloud/openapi-document';
import type { RequestChecker } from '@browser-cloud/sandbox';
import fc from 'fast-check';
import type { DocumentValidator } from './judge.js';
import { type Answer, type ExchangeLimits, type ExchangeTarget, exchange, NoAnswerError } from './exchange.js';
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

export interface CasesResult {
  ok: boolean;
  /** How many cases ran before the end or the first failure. */
  runs: number;
  /** The report of the (shrunk) failing case: operation, rule, problems, curl, seed. */
  report?: string;
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

class CaseFailure extends Error {
  constructor(
    readonly problems: string[],
    readonly answer: Answer | undefined,
  ) {
    super(problems.join('; '));
  }
}

export async function runGeneratedCases(options: RunCasesOptions): Promise<CasesResult> {
  const { operation, kind, target, limits } = options;
  const arbitraries = caseArbitraries(options.document, operation, options.checker, options.known);
  const arbitrary: fc.Arbitrary<RequestCase> = kind === 'valid' ? arbitraries.valid : arbitraries.invalid;
  const property = fc.asyncProperty(arbitrary, async (c) => {
    let answer: Answer;
    try {
      answer = await exchange(target, c, limits);
    } catch (error) {
      if (error instanceof NoAnswerError) throw new CaseFailure([`answer: ${error.message}`], undefined);
      throw error;
    }
    const problems = options.validator.judge(
      operation,
      answer,
      kind === 'valid' ? undefined : (c as InvalidCase).expectedStatuses,
    );
    if (problems.length > 0) throw new CaseFailure(problems, answer);
  });
  const seed = derivedSeed(options.seed, operation.operationId, kind);
  const details = await fc.check(property, { seed, numRuns: options.runs });
  if (!details.failed) return { ok: true, runs: details.numRuns };
  const failing = details.counterexample?.[0] as RequestCase | undefined;
  const error = details.errorInstance;
  const lines = [
    `${operation.operationId}: ${kind === 'valid' ? 'a valid request' : `an invalid request (${failing?.rule ?? 'unknown rule'})`} got an answer that breaks the contract`,
  ];
  if (error instanceof CaseFailure) {
    for (const problem of error.problems) lines.push(`  - ${problem}`);
    if (error.answer)
      lines.push(`  answer: ${error.answer.status} ${error.answer.contentType} ${error.answer.text.slice(0, 200)}`);
  } else {
    lines.push(`  - the engine failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (failing) lines.push(`  reproduce: ${toCurl(failing, target.baseUrl)}`);
  lines.push(
    `  after ${details.numRuns} case(s), shrunk ${details.numShrinks} time(s); seed ${options.seed} (CONTRACT_SEED=${options.seed}), fast-check seed ${seed}, path "${details.counterexamplePath}"`,
  );
  return { ok: false, runs: details.numRuns, report: lines.join('\n') };
}
