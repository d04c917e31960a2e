import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@browser-cloud/openapi-document';
import { locateOperation, routeSchema } from './route-schemas.js';

const document = loadOpenApiDocument();

describe('routeSchema', () => {
  it('refers to the document for params and body', () => {
    const located = locateOperation(document, 'renameProfile');
    expect(located).toMatchObject({ method: 'patch', fastifyPath: '/profiles/:id_or_name' });
    const { response, ...request } = routeSchema(document, located);
    expect(Object.keys(response as object)).toEqual(Object.keys(located.responses));
    expect(request).toEqual({
      params: {
        type: 'object',
        properties: {
          id_or_name: { $ref: 'openapi.json#/paths/~1profiles~1%7Bid_or_name%7D/patch/parameters/0/schema' },
        },
        required: ['id_or_name'],
      },
      body: {
        $ref: 'openapi.json#/paths/~1profiles~1%7Bid_or_name%7D/patch/requestBody/content/application~1json/schema',
      },
    });
  });

  it('resolves a parameter $ref to the component', () => {
    const schema = routeSchema(document, locateOperation(document, 'loginAuthConnection'));
    expect(schema.params).toMatchObject({
      properties: { id: { $ref: 'openapi.json#/components/parameters/AuthConnectionId/schema' } },
    });
  });

  it('uses the whole-query schema for the log stream, and checks it names the parameters', () => {
    const located = locateOperation(document, 'streamBrowserLogs');
    expect(routeSchema(document, located, '/components/schemas/LogStreamQuery').querystring).toEqual({
      $ref: 'openapi.json#/components/schemas/LogStreamQuery',
    });
    expect(() => routeSchema(document, located)).toThrow(/query parameters/);
    expect(() => routeSchema(document, located, '/components/schemas/Profile')).toThrow(/does not describe/);
  });

  it('refuses an unknown operation', () => {
    expect(() => locateOperation(document, 'deleteEverything')).toThrow(/no operation/);
  });
});
