// Why a case did not run, said the same way by the cases (their title, or the meta of a case that
// skips itself) and read back by the runner for the console summary, junit.xml and summary.json.

/** Cases that need Prism's `Prefer` header: they mean something on the mock only. */
export const MOCK_ONLY = "needs Prism's Prefer header, which only the mock honours";
/** Cases that need a server that keeps state: the mock answers from examples. */
export const STATEFUL_ONLY = 'needs a server that keeps state; the mock answers every request from examples';

/** The title of a case skipped for `reason`. */
export function skipTitle(title, reason) {
  return `${title} (skipped: ${reason})`;
}

const IN_TITLE = /\(skipped: (.*)\)$/;
const UNSET = /(CONTRACT_[A-Z_]+)/g;

function kindOf(reason) {
  if (reason.startsWith(MOCK_ONLY)) return 'mock-only';
  if (reason.startsWith(STATEFUL_ONLY)) return 'stateful-only';
  if (/ (is|are) not set$/.test(reason)) return 'unset-variable';
  return 'target-state';
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
    .map((title) => IN_TITLE.exec(title)?.[1])
    .concat(assertion.meta?.skipReason)
    .filter(Boolean);
  if (reasons.length === 0) return { reason: 'no reason given', kind: 'unexplained', variables: [] };
  const kind = PRECEDENCE.find((k) => reasons.some((r) => kindOf(r) === k));
  const own = [...new Set(reasons.filter((r) => kindOf(r) === kind))];
  const variables =
    kind === 'unset-variable' ? [...new Set(own.flatMap((r) => [...r.matchAll(UNSET)].map((m) => m[1])))] : [];
  return { reason: own.join('; '), kind, variables };
}

/** Whether a case of this kind cannot mean anything on the target: Prefer cases off the mock, stateful cases on it. */
export function notApplicable(kind, mode) {
  return mode === 'mock' ? kind === 'stateful-only' : kind === 'mock-only';
}
