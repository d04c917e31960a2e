import { describe, expect, it } from 'vitest';
import { jsonDifference } from './json-difference.js';

describe('jsonDifference', () => {
  it('finds none between equal data, key order aside', () => {
    expect(jsonDifference({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] })).toBeUndefined();
    expect(jsonDifference({}, Object.create(null))).toBeUndefined();
  });

  it.each([
    [
      'another scalar',
      { a: { b: 'x\n\n' } },
      { a: { b: 'x\n' } },
      { pointer: '/a/b', expected: 'x\n\n', actual: 'x\n' },
    ],
    ['another type', { a: '1' }, { a: 1 }, { pointer: '/a', expected: '1', actual: 1 }],
    ['a missing key', { a: 1, b: 2 }, { a: 1 }, { pointer: '/b', expected: 2, actual: undefined }],
    ['an extra key', { a: 1 }, { a: 1, '<<': 2 }, { pointer: '/<<', expected: undefined, actual: 2 }],
    ['a shorter array', { a: [1, 2] }, { a: [1] }, { pointer: '/a/1', expected: 2, actual: undefined }],
    ['an array for an object', { a: {} }, { a: [] }, { pointer: '/a', expected: {}, actual: [] }],
    ['a key with a slash', { 'a/b': 1 }, { 'a/b': 2 }, { pointer: '/a~1b', expected: 1, actual: 2 }],
    ['the root', 'x', null, { pointer: '', expected: 'x', actual: null }],
  ])('finds %s, with its pointer', (_name, expected, actual, difference) => {
    expect(jsonDifference(expected, actual)).toEqual(difference);
  });

  it('finds the first difference in the order of the expected data', () => {
    expect(jsonDifference({ a: 1, b: 1 }, { b: 2, a: 2 })?.pointer).toBe('/a');
  });

  it('takes a value JSON cannot hold for a difference, even against itself', () => {
    expect(jsonDifference({ a: Number.NaN }, { a: Number.NaN })?.pointer).toBe('/a');
    const date = new Date(0);
    expect(jsonDifference({ a: date }, { a: date })?.pointer).toBe('/a');
    expect(jsonDifference({ a: Infinity }, { a: null })?.pointer).toBe('/a');
  });
});
