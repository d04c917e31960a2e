import { describe, expect, it } from 'vitest';
import { schemaTypes } from './schema-types.js';

describe('schemaTypes', () => {
  it('reads a type, written alone or as a list', () => {
    expect(schemaTypes({ type: 'integer' })).toEqual(['integer']);
    expect(schemaTypes({ type: ['string', 'null'] })).toEqual(['string', 'null']);
  });

  it('takes the type over what the composition says', () => {
    expect(schemaTypes({ type: 'string', oneOf: [{ type: 'integer' }] })).toEqual(['string']);
  });

  it('unites the types of oneOf and anyOf members, nested ones included', () => {
    expect(schemaTypes({ oneOf: [{ type: 'boolean' }, { type: 'integer', minimum: 0 }] })).toEqual([
      'boolean',
      'integer',
    ]);
    expect(schemaTypes({ anyOf: [{ oneOf: [{ type: 'string' }] }, { type: 'null' }, { type: 'string' }] })).toEqual([
      'string',
      'null',
    ]);
  });

  it('keeps what every typed allOf member allows, an integer being a number', () => {
    expect(schemaTypes({ allOf: [{ type: 'integer' }, { minimum: 1 }] })).toEqual(['integer']);
    expect(schemaTypes({ allOf: [{ type: ['number', 'string'] }, { type: 'integer' }] })).toEqual(['integer']);
    expect(schemaTypes({ allOf: [{ type: 'string' }, { type: 'boolean' }] })).toEqual([]);
  });

  it('reads an enum or a const by its values', () => {
    expect(schemaTypes({ enum: [1, 2, null] })).toEqual(['number', 'null']);
    expect(schemaTypes({ enum: ['a', true, [1], { b: 1 }] })).toEqual(['string', 'boolean', 'array', 'object']);
    expect(schemaTypes({ const: false })).toEqual(['boolean']);
  });

  it('says nothing of a schema that says nothing of its type', () => {
    expect(schemaTypes({})).toEqual([]);
    expect(schemaTypes(true)).toEqual([]);
    expect(schemaTypes(undefined)).toEqual([]);
    expect(schemaTypes({ description: 'anything', minLength: 1 })).toEqual([]);
  });
});
