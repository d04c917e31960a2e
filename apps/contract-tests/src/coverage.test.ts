import { describe, expect, it } from 'vitest';
import { documentedPairs, missingCoverage } from '../scripts/coverage.mjs';
import { loadOpenApiDocument, type OpenApiDocument } from '@browser-cloud/openapi-document';

const document = loadOpenApiDocument();
// Edited copies reach into the document as plain data.
const editable = (): Record<string, any> => structuredClone(document);

describe('coverage rule', () => {
  it('lists every operation and status of the document', () => {
    const pairs = documentedPairs(document).map((p) => `${p.operationId} ${p.status}`);
    for (const status of [200, 400, 401, 403, 404, 409, 500]) expect(pairs).toContain(`loginAuthConnection ${status}`);
    for (const status of [200, 400, 401, 403, 404, 409, 500]) expect(pairs).toContain(`renameProfile ${status}`);
    for (const status of [200, 400, 401, 403, 404, 500]) expect(pairs).toContain(`streamBrowserLogs ${status}`);
  });

  it('fails when a new status or operation has no case', () => {
    const observed = documentedPairs(document).map((p) => ({ operationId: p.operationId, status: Number(p.status) }));
    expect(missingCoverage(document, observed)).toEqual([]);

    const withNewStatus = editable();
    withNewStatus.paths['/profiles/{id_or_name}'].patch.responses['429'] = { description: 'Too many requests.' };
    expect(missingCoverage(withNewStatus as OpenApiDocument, observed)).toEqual(['renameProfile 429']);

    const withNewOperation = editable();
    withNewOperation.paths['/profiles/{id_or_name}'].delete = {
      operationId: 'deleteProfile',
      responses: { '204': { description: 'Deleted.' } },
    };
    expect(missingCoverage(withNewOperation as OpenApiDocument, observed)).toEqual(['deleteProfile 204']);
  });
});
