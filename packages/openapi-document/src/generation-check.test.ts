import { describe, expect, it } from 'vitest';
import { inputFlags } from './generation-check.js';

const member = (property: string, extra: object = {}) => ({
  type: 'object',
  properties: { [property]: { type: 'string' } },
  ...extra,
});

describe('inputFlags', () => {
  it('gives an input one option, its name in kebab case', () => {
    expect(inputFlags('max_lines', { type: 'integer' })).toEqual([{ flag: 'max-lines' }]);
  });

  it('gives a oneOf of objects of one property each, named differently, an option per member', () => {
    expect(inputFlags('proxy', { oneOf: [member('id'), member('name')] })).toEqual([
      { flag: 'proxy-id', member: 'id' },
      { flag: 'proxy-name', member: 'name' },
    ]);
  });

  it('gives members that share their property one option (a discriminated union)', () => {
    expect(inputFlags('pet', { oneOf: [member('kind'), member('kind')] })).toEqual([{ flag: 'pet' }]);
  });

  it('gives one option when a member has no property or more than one, or is no object', () => {
    expect(inputFlags('pet', { oneOf: [member('id'), { type: 'object', properties: {} }] })).toEqual([{ flag: 'pet' }]);
    expect(inputFlags('pet', { oneOf: [member('id'), member('name', { properties: { a: {}, b: {} } })] })).toEqual([
      { flag: 'pet' },
    ]);
    expect(inputFlags('pet', { oneOf: [member('id'), { type: 'string' }] })).toEqual([{ flag: 'pet' }]);
  });
});
