// The coverage rule of the contract suite: every operation of the document, with every status
// it documents, must have been exercised by at least one case.
import { operations } from '@browser-cloud/openapi-document';

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
