import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from './index.js';
import { queryRules, queryUnionName } from './query-rules.js';

const rule = (key: string, value: unknown, required: string[]) => ({
  if: { properties: { [key]: { const: value } }, required: [key] },
  then: { required },
});

describe('queryRules', () => {
  it("reads the log query's rules: one property of an enum, the properties each value requires", () => {
    const schema = loadOpenApiDocument().components!.schemas!['LogStreamQuery'] as Record<string, unknown>;
    const rules = queryRules(schema)!;
    expect(rules.key).toBe('source');
    expect(rules.values).toEqual(expect.arrayContaining(['path', 'supervisor']));
    expect(rules.rules.map((r) => [r.value, r.required])).toContainEqual(['path', ['path']]);
    expect(queryUnionName('LogStreamQuery', rules)).toBe('LogStreamQueryBySource');
  });

  it('makes no union of rules on two properties, of a property without an enum, or of other keywords', () => {
    const properties = { a: { enum: ['x', 'y'] }, b: { enum: ['z'] }, c: { type: 'string' } };
    expect(queryRules({ properties, allOf: [rule('a', 'x', ['c']), rule('b', 'z', ['c'])] })).toBeUndefined();
    expect(queryRules({ properties, allOf: [rule('c', 'x', ['a'])] })).toBeUndefined();
    const other = { if: rule('a', 'x', []).if, then: { properties: { c: { minLength: 1 } } } };
    expect(queryRules({ properties, allOf: [other] })).toBeUndefined();
    expect(queryRules({ properties, allOf: [rule('a', 'x', ['c'])] })).toMatchObject({ key: 'a', values: ['x', 'y'] });
    expect(queryRules({ properties })).toBeUndefined();
  });
});
