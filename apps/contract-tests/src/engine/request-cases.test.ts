import { loadOpenApiDocument, operations } from '@browser-cloud/openapi-document';
import { createRequestChecker } from '@browser-cloud/request-checker';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArbitraries, GivenValueError, refusalOf } from './request-cases.js';

const document = loadOpenApiDocument();
const checker = createRequestChecker(document);

describe('the cases of every operation of the document', () => {
  it.each([...operations(document)].map((o) => [o.operationId, o] as const))(
    '%s: valid ones are requests the one checker accepts, invalid ones requests it refuses, every kind of rule on every run',
    (_id, operation) => {
      // A value each path parameter takes: its example (an integer id, say), else a made-up name.
      const known = Object.fromEntries(
        operation.parameters
          .filter((p) => p.in === 'path')
          .map((p) => [p.name, String(p.parameter.example ?? 'zz-known')]),
      );
      const { valid, addressed, invalid, everyRule } = caseArbitraries(document, operation, checker, {
        path: Object.fromEntries(Object.entries(known).map(([name, value]) => [name, [value]])),
      });
      for (const c of fc.sample(valid, { seed: 1, numRuns: 50 }))
        expect(refusalOf(checker, operation, c)).toBeUndefined();
      for (const c of fc.sample(addressed, { seed: 2, numRuns: 20 })) {
        expect(c.pathParams).toEqual(known);
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

describe('a given value its path parameter does not take', () => {
  it('is an error naming the operation, the parameter, the value and the rule, not a search for a case that never ends', () => {
    const integer = structuredClone(document) as any;
    const rename = integer.paths['/profiles/{id_or_name}'].patch;
    rename.parameters.find((p: { name: string }) => p.name === 'id_or_name').schema = { type: 'integer', minimum: 1 };
    delete rename.parameters.find((p: { name: string }) => p.name === 'id_or_name')['x-repeatable-when-matches'];
    const operation = [...operations(integer)].find((o) => o.operationId === 'renameProfile')!;
    const build = (value: string, live: boolean) =>
      caseArbitraries(integer, operation, createRequestChecker(integer), { path: { id_or_name: [value] } }, { live });
    for (const live of [true, false]) {
      expect(() => build('prof_text', live).addressed).toThrow(GivenValueError);
      expect(() => build('prof_text', live)).toThrow(
        'renameProfile: the value given for its path parameter id_or_name (prof_text) is not one it takes: must be integer',
      );
    }
    // A value it takes builds cases on it.
    const [c] = fc.sample(build('42', true).valid, { seed: 1, numRuns: 1 });
    expect(c!.pathParams).toEqual({ id_or_name: '42' });
  });
});
