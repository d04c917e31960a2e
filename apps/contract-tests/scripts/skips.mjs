// Why a case did not run: the case writes it in its meta (`skipReason`), the runner reads it back
// for the console summary, junit.xml and summary.json.

/** Cases that need Prism's `Prefer` header: they mean something on the mock only. */
export const MOCK_ONLY = "needs Prism's Prefer header, which only the mock honours";
/** Cases that need a server that keeps state: the mock answers from examples. */
export const STATEFUL_ONLY = 'needs a server that keeps state; the mock answers every request from examples';

function kindOf(reason) {
  if (reason.startsWith(MOCK_ONLY)) return 'mock-only';
  if (reason.startsWith(STATEFUL_ONLY)) return 'stateful-only';
  return / (is|are) not set$/.test(reason) ? 'unset-variable' : 'target-state';
}

/**
 * The reason, kind and unset variables of a case of vitest's JSON report that did not run. Kinds:
 * `mock-only`, `stateful-only`, `unset-variable`, `target-state` (anything else the target made
 * impossible to check), `unexplained` (no reason at all, a `-t` filter…: never intended).
 * @param {{ meta?: { skipReason?: string } }} assertion
 * @returns {{ reason: string, kind: string, variables: string[] }}
 */
export function skipOf({ meta }) {
  const reason = meta?.skipReason;
  if (!reason) return { reason: 'no reason given', kind: 'unexplained', variables: [] };
  const kind = kindOf(reason);
  return { reason, kind, variables: kind === 'unset-variable' ? [...new Set(reason.match(/CONTRACT_[A-Z_]+/g))] : [] };
}
