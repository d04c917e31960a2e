// The coverage rule of the contract suite: every operation of the document, with every status
// it documents, must have been exercised by at least one case.
import { existsSync, readFileSync } from 'node:fs';
import { loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';

/** @returns {{ operationId: string, status: string }[]} every (operation, status) the document documents */
export function documentedPairs(document) {
  // `default` is no status: it covers any other, so no case can aim at it.
  return [...operations(document)].flatMap(({ operationId, responses }) =>
    Object.keys(responses)
      .filter((status) => status !== 'default')
      .map((status) => ({ operationId, status })),
  );
}

/**
 * @param {unknown} document the OpenAPI document
 * @param {{ operationId: string, status: number }[]} observed responses the suite received
 * @returns {string[]} `operationId status` for each documented pair no case exercised
 */
export function missingCoverage(document, observed) {
  const seen = new Set(observed.map((o) => `${o.operationId} ${o.status}`));
  return documentedPairs(document)
    .filter(({ operationId, status }) => {
      if (/^\dXX$/.test(status)) return ![...seen].some((s) => s.startsWith(`${operationId} ${status[0]}`));
      return !seen.has(`${operationId} ${status}`);
    })
    .map(({ operationId, status }) => `${operationId} ${status}`);
}

/** The coverage line of a run from `observedFile` (a JSON pair a line); only the mock can aim at every status. */
export function coverageOf(observedFile, { mode, partial }) {
  const observed = existsSync(observedFile) ? readFileSync(observedFile, 'utf8').split('\n').filter(Boolean) : [];
  const missing = missingCoverage(
    loadOpenApiDocument(),
    observed.map((line) => JSON.parse(line)),
  );
  const list = missing.join(', ');
  if (partial) return { missing, coverage: 'not checked on part of the cases (a shard or a file filter)' };
  if (missing.length === 0) return { missing, coverage: 'every documented operation and status exercised' };
  const cause = "the mock's Prefer cases, cases not run";
  if (mode !== 'mock') return { missing, coverage: `not exercised on this target (${cause}): ${list}` };
  const problem = `coverage: ${missing.length} documented operation status(es) never exercised`;
  return { missing, coverage: `FAILED, documented but never exercised: ${list}`, problem };
}
