// Why a case did not run, said the same way by the cases (their title, or the meta of a case that
// skips itself) and read back by the runner for the console summary, junit.xml and summary.json.

/** Cases that need Prism's `Prefer` header: they mean something on the mock only. */
export const MOCK_ONLY = "needs Prism's Prefer header, which only the mock honours";
/** Cases that need a server that keeps state: the mock answers from examples. */
export const STATEFUL_ONLY = 'needs a server that keeps state; the mock answers every request from examples';

/** The title of a case skipped for `reason`. */
export const skipTitle = (title, reason) => `${title} (skipped: ${reason})`;

function kindOf(reason) {
  if (reason.startsWith(MOCK_ONLY)) return 'mock-only';
  if (reason.startsWith(STATEFUL_ONLY)) return 'stateful-only';
  return / (is|are) not set$/.test(reason) ? 'unset-variable' : 'target-state';
}
/** A case that cannot apply to the target is skipped for that first, whatever else it lacks. */
const PRECEDENCE = ['mock-only', 'stateful-only', 'unset-variable', 'target-state'];

/**
 * The reason, kind and unset variables of a case of vitest's JSON report that did not run, from
 * the case's meta (a case that skipped itself) and from its own and its suites' titles.
 * Kinds: `mock-only`, `stateful-only`, `unset-variable`, `target-state` (anything else the target
 * made impossible to check), `unexplained` (no reason at all: never intended).
 * @returns {{ reason: string, kind: string, variables: string[] }}
 */
export function skipOf(assertion) {
  const reasons = [...(assertion.ancestorTitles ?? []), assertion.title]
    .map((title) => /\(skipped: (.*)\)$/.exec(title)?.[1])
    .concat(assertion.meta?.skipReason)
    .filter(Boolean);
  if (reasons.length === 0) return { reason: 'no reason given', kind: 'unexplained', variables: [] };
  const kind = PRECEDENCE.find((k) => reasons.some((r) => kindOf(r) === k));
  const own = [...new Set(reasons.filter((r) => kindOf(r) === kind))];
  const variables = kind === 'unset-variable' ? own.flatMap((r) => r.match(/CONTRACT_[A-Z_]+/g) ?? []) : [];
  return { reason: own.join('; '), kind, variables: [...new Set(variables)] };
}
