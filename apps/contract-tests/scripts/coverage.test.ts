import { HTTP_METHODS, loadOpenApiDocument, type OpenApiDocument } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import { documentedPairs, missingCoverage } from './coverage.mjs';

const document = loadOpenApiDocument();
// Edited copies reach into the document as plain data.
const editable = (): Record<string, any> => structuredClone(document);
const observedAll = (doc: OpenApiDocument) =>
  documentedPairs(doc).map((p) => ({ operationId: p.operationId, status: Number(p.status) }));

describe('coverage rule', () => {
  it('lists every operation and status the document writes', () => {
    const written = Object.values(document.paths ?? {}).flatMap((item) =>
      HTTP_METHODS.flatMap((method) => {
        const operation = (item as Record<string, any>)[method];
        return operation ? Object.keys(operation.responses).map((status) => `${operation.operationId} ${status}`) : [];
      }),
    );
    expect(written.length).toBeGreaterThan(0);
    expect(documentedPairs(document).map((p) => `${p.operationId} ${p.status}`)).toEqual(written);
  });

  it('fails when a new status or operation has no case', () => {
    expect(missingCoverage(document, observedAll(document))).toEqual([]);

    const [path, item] = Object.entries(editable().paths as Record<string, Record<string, any>>)[0]!;
    const method = HTTP_METHODS.find((m) => item[m])!;
    const withNewStatus = editable();
    withNewStatus.paths[path][method].responses['599'] = { description: 'A status no release will document.' };
    expect(missingCoverage(withNewStatus as OpenApiDocument, observedAll(document))).toEqual([
      `${item[method].operationId} 599`,
    ]);

    const withNewOperation = editable();
    withNewOperation.paths['/zz_not_in_document'] = {
      get: { operationId: 'zzNotInDocument', responses: { '204': { description: 'Nothing.' } } },
    };
    expect(missingCoverage(withNewOperation as OpenApiDocument, observedAll(document))).toEqual([
      'zzNotInDocument 204',
    ]);
  });

  it('takes any status of a range for the range, and asks no case of `default`', () => {
    const ranged = editable();
    const [path, item] = Object.entries(ranged.paths as Record<string, Record<string, any>>)[0]!;
    const method = HTTP_METHODS.find((m) => item[m])!;
    item[method].responses = { '2XX': { description: 'ok' }, default: { description: 'any other' } };
    ranged.paths = { [path]: { [method]: item[method] } };
    const operationId = item[method].operationId;
    expect(missingCoverage(ranged as OpenApiDocument, [])).toEqual([`${operationId} 2XX`]);
    expect(missingCoverage(ranged as OpenApiDocument, [{ operationId, status: 204 }])).toEqual([]);
  });
});
