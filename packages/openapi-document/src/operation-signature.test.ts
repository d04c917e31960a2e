import { describe, expect, it } from 'vitest';
import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument, OperationObject, ParameterObject } from './document-types.js';
import { operationSignature } from './operation-signature.js';
import { findOperation } from './operations.js';

/** A document of the test's own, with one operation at `/a/{first}/b/{second}`. */
function documentWith(operation: Partial<OperationObject>): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths: {
      '/a/{first}/b/{second}': {
        post: { operationId: 'moveThing', responses: { '204': { description: 'done' } }, ...operation },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          properties: { label: { $ref: '#/components/schemas/Label' }, note: { type: 'string' } },
          required: ['label'],
        },
        Label: { type: 'string', description: 'A label.' },
      },
    },
  } as OpenApiDocument;
}

const signature = (operation: Partial<OperationObject>) => {
  const document = documentWith(operation);
  return operationSignature(document, findOperation(document, 'moveThing'));
};

const PATH = [
  // Listed out of path order, on purpose.
  { name: 'second', in: 'path', required: true, schema: { type: 'string' } },
  { name: 'first', in: 'path', required: true, description: 'The first one.', schema: { type: 'integer' } },
] satisfies ParameterObject[];

describe('operationSignature', () => {
  it('takes path parameters in path order, then query parameters, then body properties, references inlined', () => {
    const { arguments: args, call } = signature({
      parameters: [...PATH, { name: 'dry_run', in: 'query', schema: { type: 'boolean' } }],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
      },
    });
    expect(args).toEqual([
      { name: 'first', in: 'path', required: true, schema: { type: 'integer', description: 'The first one.' } },
      { name: 'second', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'dry_run', in: 'query', required: false, schema: { type: 'boolean' } },
      { name: 'label', in: 'body', required: true, schema: { type: 'string', description: 'A label.' } },
      { name: 'note', in: 'body', required: false, schema: { type: 'string' } },
    ]);
    expect(call).toEqual({
      sdk: { resource: ['a', 'b'], verb: 'move' },
      path: ['first', 'second'],
      body: 'required',
      // Optional parameters only: their query goes in the options.
      query: 'options',
    });
  });

  it('an optional body: no property is required, and the call says the body may be left out', () => {
    const { arguments: args, call } = signature({
      parameters: PATH,
      requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
    });
    expect(args.filter((a) => a.in === 'body').map((a) => a.required)).toEqual([false, false]);
    expect(call).toMatchObject({ body: 'optional', query: 'none' });
  });

  it('no body: none in the call', () => {
    expect(signature({ parameters: PATH }).call).toMatchObject({ body: 'none', query: 'none' });
  });

  it('a query with a required parameter is an argument of its own', () => {
    const parameters = [...PATH, { name: 'kind', in: 'query' as const, required: true, schema: { type: 'string' } }];
    expect(signature({ parameters }).call).toMatchObject({ query: 'positional' });
  });

  it('refuses an input name taken twice, naming both places', () => {
    expect(() =>
      signature({
        parameters: [...PATH, { name: 'label', in: 'query', schema: { type: 'string' } }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
      }),
    ).toThrow(new OpenApiDocumentError('/paths/~1a~1{first}~1b~1{second}/post: two inputs are named "label"'));
  });

  it('takes the properties of a body composed by allOf, and the required ones of every member', () => {
    const body = {
      allOf: [
        { $ref: '#/components/schemas/Thing' },
        { properties: { size: { type: 'integer' } }, required: ['size'] },
      ],
    };
    const { arguments: args } = signature({
      parameters: PATH,
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
    });
    expect(args.filter((a) => a.in === 'body').map(({ name, required }) => [name, required])).toEqual([
      ['label', true],
      ['note', false],
      ['size', true],
    ]);
  });

  it('refuses a body that is not an object of properties, and a parameter without a schema', () => {
    expect(() =>
      signature({ parameters: PATH, requestBody: { content: { 'application/json': { schema: { type: 'array' } } } } }),
    ).toThrow(/the request body is not an object with properties/);
    const mixed = { allOf: [{ $ref: '#/components/schemas/Thing' }, { type: 'string' }] };
    expect(() =>
      signature({ parameters: PATH, requestBody: { content: { 'application/json': { schema: mixed } } } }),
    ).toThrow(/the request body is not an object with properties/);
    expect(() =>
      signature({ parameters: [...PATH, { name: 'zz_not_in_document', in: 'query', content: {} }] }),
    ).toThrow(/parameters\/2: the parameter has no schema/);
  });
});
