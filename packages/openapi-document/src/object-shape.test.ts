import { describe, expect, it } from 'vitest';
import { objectShape } from './object-shape.js';

const document = {
  components: {
    schemas: {
      Base: { type: 'object', properties: { id: { $ref: '#/components/schemas/Id' } }, required: ['id'] },
      Id: { type: 'string', minLength: 1 },
      Loop: { allOf: [{ $ref: '#/components/schemas/Loop' }], properties: { x: { type: 'integer' } } },
    },
  },
};

describe('objectShape', () => {
  it('holds the own properties of a schema, their $refs followed, where each is written', () => {
    const shape = objectShape(document, { $ref: '#/components/schemas/Base' }, '/paths/~1a/schema');
    expect(shape).toEqual({
      properties: { id: { schema: { type: 'string', minLength: 1 }, pointer: '/components/schemas/Id' } },
      required: ['id'],
    });
  });

  it('adds those of its allOf members, nested ones included; the first written of a name holds', () => {
    const schema = {
      properties: { name: { type: 'string' } },
      allOf: [
        { $ref: '#/components/schemas/Base' },
        { allOf: [{ properties: { name: { type: 'integer' }, size: { type: 'number' } }, required: ['size'] }] },
      ],
    };
    const shape = objectShape(document, schema, '/x');
    expect(Object.keys(shape.properties)).toEqual(['name', 'id', 'size']);
    expect(shape.properties['name']).toEqual({ schema: { type: 'string' }, pointer: '/x/properties/name' });
    expect(shape.properties['size']?.pointer).toBe('/x/allOf/1/allOf/0/properties/size');
    expect(shape.required).toEqual(['id', 'size']);
  });

  it('ends on a schema that composes itself, and says nothing of what is no object schema', () => {
    expect(Object.keys(objectShape(document, { $ref: '#/components/schemas/Loop' }, '/y').properties)).toEqual(['x']);
    expect(objectShape(document, { type: 'string' }, '/z')).toEqual({ properties: {}, required: [] });
    expect(objectShape(document, true, '/z')).toEqual({ properties: {}, required: [] });
  });
});
