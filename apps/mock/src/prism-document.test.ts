import { createRequire } from 'node:module';
import type { OpenApiDocument } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import { prismDocument } from './prism-document.js';

// Prism's own router, to show what it matches before and after.
const { matchPath } = createRequire(import.meta.url)('@stoplight/prism-http/dist/router/matchPath.js') as {
  matchPath: (request: string, template: string) => { right: string };
};
const NO_MATCH = 'no-match';

const answer = { '200': { description: 'ok' } };
const document = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/things/{item.id}/parts/{part-id}': {
      parameters: [{ $ref: '#/components/parameters/ItemId' }],
      get: {
        operationId: 'getPart',
        parameters: [{ name: 'part-id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: answer,
      },
    },
    '/plain/{id}': {
      get: { operationId: 'getPlain', parameters: [{ name: 'id', in: 'path', required: true }], responses: answer },
    },
  },
  components: {
    parameters: { ItemId: { name: 'item.id', in: 'path', required: true, schema: { type: 'string' } } },
  },
} as unknown as OpenApiDocument;

describe('the document Prism is given', () => {
  it('renames a path template name Prism cannot match, in the path and in its parameters', () => {
    expect(matchPath('/things/a/parts/1', '/things/{item.id}/parts/{part-id}').right).toBe(NO_MATCH);
    const rendered = JSON.parse(prismDocument(document));
    const paths: string[] = Object.keys(rendered.paths);
    expect(paths).toEqual(['/plain/{id}', '/things/{item_id_p0}/parts/{part-id}']);
    const [, renamed = ''] = paths;
    expect(matchPath('/things/a/parts/1', renamed).right).not.toBe(NO_MATCH);
    const item = rendered.paths[renamed];
    expect(item.parameters).toEqual([{ name: 'item_id_p0', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(item.get.parameters[0].name).toBe('part-id');
    // The shared parameter is left as it is for the rest of the document; the original is untouched.
    expect(rendered.components.parameters.ItemId.name).toBe('item.id');
    expect(Object.keys(document.paths!)).toContain('/things/{item.id}/parts/{part-id}');
  });

  it('leaves out the schema of a parameter that has no type, which Prism would read as text', () => {
    const since = { name: 'since', in: 'query', schema: { oneOf: [{ type: 'boolean' }, { type: 'integer' }] } };
    const page = { name: 'page', in: 'query', schema: { type: 'integer' } };
    const typeless = {
      ...document,
      paths: { '/z': { get: { operationId: 'z', parameters: [since, page], responses: answer } } },
    } as unknown as OpenApiDocument;
    const rendered = JSON.parse(prismDocument(typeless));
    expect(rendered.paths['/z'].get.parameters).toEqual([{ ...since, schema: {} }, page]);
    // The document given is left as it was.
    expect(since.schema).toEqual({ oneOf: [{ type: 'boolean' }, { type: 'integer' }] });
  });

  it('leaves a document whose names Prism matches as it is', () => {
    const plain = { ...document, paths: { '/plain/{id}': document.paths!['/plain/{id}']! } } as OpenApiDocument;
    expect(JSON.parse(prismDocument(plain))).toEqual(JSON.parse(JSON.stringify(plain)));
  });
});
