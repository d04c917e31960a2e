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

/** `operationId status` for each pair the document documents that no `observed` response exercised. */
export function missingCoverage(document, observed) {
  const seen = observed.map((o) => `${o.operationId} ${o.status}`);
  // A range (`4XX`) is covered by any status in it.
  const covered = (pair) => seen.some((s) => s === pair || (pair.endsWith('XX') && s.startsWith(pair.slice(0, -2))));
  return documentedPairs(document)
    .map(({ operationId, status }) => `${operationId} ${status}`)
    .filter((pair) => !covered(pair));
}

/** The coverage line of a run from `observedFile` (a JSON pair a line); only the mock can aim at every status. */
export function coverageOf(observedFile, { mode, partial }) {
  const text = existsSync(observedFile) ? readFileSync(observedFile, 'utf8') : '';
  const observed = text.split('\n').flatMap((line) => (line ? [JSON.parse(line)] : []));
  const missing = missingCoverage(loadOpenApiDocument(), observed);
  const list = missing.join(', ');
  if (partial) return { missing, coverage: 'not checked on part of the cases (a shard or a file filter)' };
  if (missing.length === 0) return { missing, coverage: 'every documented operation and status exercised' };
  const cause = "the mock's Prefer cases, cases not run";
  if (mode !== 'mock') return { missing, coverage: `not exercised on this target (${cause}): ${list}` };
  const problem = `coverage: ${missing.length} documented operation status(es) never exercised`;
  return { missing, coverage: `FAILED, documented but never exercised: ${list}`, problem };
}
