import { loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { createRequestChecker } from '@browser-cloud/request-checker';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArbitraries, refusalOf } from './request-cases.js';

const document = loadOpenApiDocument();
const checker = createRequestChecker(document);

describe('the cases of every operation of the document', () => {
  it.each([...operations(document)].map((o) => [o.operationId, o] as const))(
    '%s: valid ones are requests the one checker accepts, invalid ones requests it refuses, every kind of rule on every run',
    (_id, operation) => {
      const { valid, addressed, invalid, everyRule } = caseArbitraries(document, operation, checker, {
        path: Object.fromEntries(
          operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, ['zz-known']]),
        ),
      });
      for (const c of fc.sample(valid, { seed: 1, numRuns: 50 }))
        expect(refusalOf(checker, operation, c)).toBeUndefined();
      for (const c of fc.sample(addressed, { seed: 2, numRuns: 20 })) {
        expect(Object.values(c.pathParams).every((v) => v === 'zz-known')).toBe(true);
      }
      for (const c of [...everyRule(3), ...fc.sample(invalid, { seed: 3, numRuns: 50 })]) {
        if (c.withToken) expect(c.expectedStatuses).toContain(refusalOf(checker, operation, c));
        else expect(c.expectedStatuses).toEqual([401]);
      }
      // Whatever the seed: each path parameter broken, the body and the query wherever the
      // operation has them, the token wherever it needs one.
      for (const seed of [1, 2, 3]) {
        const rules = everyRule(seed).map((c) => c.rule);
        expect(new Set(rules).size).toBe(rules.length);
        for (const { name } of operation.parameters.filter((p) => p.in === 'path'))
          expect(rules.some((r) => r.startsWith('path ') && r.split(' ').includes(name))).toBe(true);
        if (operation.body) expect(rules.some((r) => r.startsWith('body'))).toBe(true);
        if (operation.query) expect(rules.some((r) => r.startsWith('query'))).toBe(true);
        if (operation.secured) expect(rules).toContain('security: no bearer token');
      }
    },
  );
});
