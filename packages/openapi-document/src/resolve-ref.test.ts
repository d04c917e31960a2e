import { describe, expect, it } from 'vitest';
import { OpenApiDocumentError } from './document-error.js';
import { deref, inlineRefs, isReference, refPointer, resolveNode, resolveRef } from './resolve-ref.js';

const document = {
  components: {
    schemas: {
      Name: { type: 'string', minLength: 1 },
      Alias: { $ref: '#/components/schemas/Name' },
      Pet: {
        type: 'object',
        properties: { name: { $ref: '#/components/schemas/Alias' }, $ref: { type: 'integer' } },
        items: [{ $ref: '#/components/schemas/Name', description: 'kept beside the ref' }],
      },
      'a/b': { const: 1 },
      Loop: { $ref: '#/components/schemas/Loop' },
      Tree: { type: 'object', properties: { child: { $ref: '#/components/schemas/Tree' } } },
      Broken: { $ref: '#/components/schemas/Nowhere' },
    },
  },
};

describe('references', () => {
  it('recognises a Reference Object', () => {
    expect(isReference({ $ref: '#/a' })).toBe(true);
    expect(isReference({ $ref: 1 })).toBe(false);
    expect(isReference(null)).toBe(false);
  });

  it('resolves a local $ref, escaped tokens included', () => {
    expect(resolveRef(document, '#/components/schemas/Name')).toEqual({ type: 'string', minLength: 1 });
    expect(resolveRef(document, '#/components/schemas/a~1b')).toEqual({ const: 1 });
    expect(refPointer('#/components/schemas/a~1b')).toBe('/components/schemas/a~1b');
  });

  it('follows a chain of references and says where the target lives', () => {
    expect(resolveNode(document, { $ref: '#/components/schemas/Alias' }, '/somewhere')).toEqual({
      node: { type: 'string', minLength: 1 },
      pointer: '/components/schemas/Name',
    });
    const inline = { type: 'boolean' };
    expect(resolveNode(document, inline, '/here')).toEqual({ node: inline, pointer: '/here' });
    expect(deref(document, { $ref: '#/components/schemas/Alias' })).toEqual({ type: 'string', minLength: 1 });
  });

  it('names an unresolvable, circular or external reference', () => {
    expect(() => deref(document, { $ref: '#/components/schemas/Broken' })).toThrow(
      /"#\/components\/schemas\/Nowhere" does not resolve/,
    );
    expect(() => deref(document, { $ref: '#/components/schemas/Loop' })).toThrow(/circular \$ref/);
    expect(() => resolveRef(document, './common.yaml#/A')).toThrow(OpenApiDocumentError);
    expect(() => resolveRef(document, 'https://x.example/a.yaml')).toThrow(/another document/);
  });
});

describe('inlineRefs', () => {
  it('replaces every reference at any depth, keeping keys beside a $ref', () => {
    expect(inlineRefs(document, { $ref: '#/components/schemas/Pet' })).toEqual({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, $ref: { type: 'integer' } },
      items: [{ type: 'string', minLength: 1, description: 'kept beside the ref' }],
    });
  });

  it('does not change its input', () => {
    const before = structuredClone(document);
    inlineRefs(document, document.components.schemas.Pet);
    expect(document).toEqual(before);
  });

  it('refuses a recursive schema', () => {
    expect(() => inlineRefs(document, { $ref: '#/components/schemas/Tree' })).toThrow(/recursive/);
  });
});
