import { describe, expect, it } from 'vitest';
import { createAjv } from './document-ajv.js';
import { allowingUnknownProperties } from './tolerant-schema.js';

const closed = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    additionalProperties: { type: 'object', properties: { x: { type: 'number' } }, additionalProperties: false },
    tags: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['id'],
  additionalProperties: false,
  unevaluatedProperties: false,
};

describe('allowingUnknownProperties', () => {
  it('drops every `additionalProperties: false` and `unevaluatedProperties: false`, at any depth', () => {
    expect(allowingUnknownProperties(closed)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        additionalProperties: { type: 'object', properties: { x: { type: 'number' } } },
        tags: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['id'],
    });
  });

  it('keeps the other rules: an unknown property passes, a missing or mistyped known one fails', () => {
    const validate = createAjv().compile(allowingUnknownProperties(closed));
    expect(validate({ id: 'a', level: 'info' })).toBe(true);
    expect(validate({ level: 'info' })).toBe(false);
    expect(validate({ id: 1 })).toBe(false);
    expect(validate({ id: 'a', tags: { k: 1 } })).toBe(false);
  });

  it('keeps what an enum, a const or a default holds, which is data', () => {
    const closed = { type: 'object', additionalProperties: false };
    const schema = { enum: [closed], const: closed, default: closed, properties: { a: closed } };
    expect(allowingUnknownProperties(schema)).toEqual({
      enum: [closed],
      const: closed,
      default: closed,
      properties: { a: { type: 'object' } },
    });
  });

  it('leaves its argument unchanged', () => {
    const copy = structuredClone(closed);
    allowingUnknownProperties(closed);
    expect(closed).toEqual(copy);
  });
});
