import { describe, expect, it } from 'vitest';
import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import { loadOpenApiDocument } from './load-document.js';
import { findOperation, findResponse, operations } from './operations.js';

const document = loadOpenApiDocument();

describe('operations over the real document', () => {
  it('yields the three operations with method, path and pointer', () => {
    expect(
      [...operations(document)].map(({ operationId, method, path, pointer }) => ({
        operationId,
        method,
        path,
        pointer,
      })),
    ).toEqual([
      {
        operationId: 'loginAuthConnection',
        method: 'post',
        path: '/auth/connections/{id}/login',
        pointer: '/paths/~1auth~1connections~1{id}~1login/post',
      },
      {
        operationId: 'renameProfile',
        method: 'patch',
        path: '/profiles/{id_or_name}',
        pointer: '/paths/~1profiles~1{id_or_name}/patch',
      },
      {
        operationId: 'streamBrowserLogs',
        method: 'get',
        path: '/browsers/{id}/logs/stream',
        pointer: '/paths/~1browsers~1{id}~1logs~1stream/get',
      },
    ]);
  });

  it('follows a parameter $ref and locates its schema there', () => {
    const [id] = findOperation(document, 'loginAuthConnection').parameters;
    expect(id).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
      pointer: '/components/parameters/AuthConnectionId',
      schema: { pointer: '/components/parameters/AuthConnectionId/schema', schema: { type: 'string', minLength: 1 } },
    });
  });

  it('resolves a parameter schema that is a $ref, and keeps where it is written', () => {
    const parameters = findOperation(document, 'streamBrowserLogs').parameters;
    expect(parameters.map((p) => `${p.in} ${p.name} ${p.required}`)).toEqual([
      'path id true',
      'query source true',
      'query path false',
      'query supervisor_process false',
      'query follow false',
    ]);
    const source = parameters[1];
    expect(source?.schema?.pointer).toBe('/paths/~1browsers~1{id}~1logs~1stream/get/parameters/1/schema');
    expect(source?.schema?.schema).toMatchObject({ enum: ['path', 'supervisor'] });
  });

  it('gives request body schemas by media type', () => {
    const body = findOperation(document, 'renameProfile').requestBody;
    expect(body?.required).toBe(true);
    const json = body?.content['application/json'];
    expect(json?.schema?.pointer).toBe(
      '/paths/~1profiles~1{id_or_name}/patch/requestBody/content/application~1json/schema',
    );
    expect(json?.schema?.schema).toMatchObject({ required: ['name'], additionalProperties: false });
    expect(json?.media.examples).toHaveProperty('rename');
    expect(findOperation(document, 'loginAuthConnection').requestBody?.required).toBe(false);
    expect(findOperation(document, 'streamBrowserLogs').requestBody).toBeUndefined();
  });

  it('gives responses by status, a $ref followed, with schemas by media type and headers', () => {
    const rename = findOperation(document, 'renameProfile');
    expect(Object.keys(rename.responses)).toEqual(['200', '400', '401', '403', '404', '409', '500']);
    const notFound = rename.responses['404'];
    expect(notFound?.pointer).toBe('/components/responses/NotFound');
    expect(notFound?.content['application/json']?.schema).toMatchObject({
      pointer: '/components/responses/NotFound/content/application~1json/schema',
      schema: { required: expect.arrayContaining(['code', 'message']) },
    });
    const ok = rename.responses['200'];
    expect(ok?.headers['X-Request-Id']).toMatchObject({
      name: 'X-Request-Id',
      pointer: '/components/headers/RequestId',
    });
    expect(ok?.headers['X-Request-Id']?.schema?.schema).toMatchObject({ type: 'string' });
    const stream = findOperation(document, 'streamBrowserLogs').responses['200']?.content['text/event-stream'];
    expect(stream?.schema?.schema).toHaveProperty('x-sse-event-data');
  });

  it('findOperation names an unknown operation', () => {
    expect(() => findOperation(document, 'deleteEverything')).toThrow(
      'the OpenAPI document has no operation "deleteEverything"',
    );
  });
});

describe('findResponse', () => {
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths: {
      '/a': {
        get: { operationId: 'a', responses: { '200': { description: 'ok' }, '4XX': { description: 'c' } } },
        put: { operationId: 'b', responses: { '200': { description: 'ok' }, default: { description: 'd' } } },
      },
    },
  };

  it('takes the exact status, then its range, then default', () => {
    expect(findResponse(findOperation(doc, 'a'), 200)?.status).toBe('200');
    expect(findResponse(findOperation(doc, 'a'), 404)?.status).toBe('4XX');
    expect(findResponse(findOperation(doc, 'a'), 500)).toBeUndefined();
    expect(findResponse(findOperation(doc, 'b'), 500)?.status).toBe('default');
  });
});

describe('a document the iterator cannot use', () => {
  const base = { openapi: '3.1.0', info: { title: 'T', version: '1' } };

  it('an operation without operationId', () => {
    const doc: OpenApiDocument = { ...base, paths: { '/x': { get: { responses: {} } } } };
    expect(() => [...operations(doc)]).toThrow(
      new OpenApiDocumentError('the operation at /paths/~1x/get has no operationId'),
    );
  });

  it('a parameter $ref that does not resolve, or a parameter without name', () => {
    const dangling: OpenApiDocument = {
      ...base,
      paths: { '/x': { get: { operationId: 'x', parameters: [{ $ref: '#/components/parameters/Nope' }] } } },
    };
    expect(() => [...operations(dangling)]).toThrow(/"#\/components\/parameters\/Nope" does not resolve/);
    const nameless = { ...base, paths: { '/x': { get: { operationId: 'x', parameters: [{ in: 'query' }] } } } };
    expect(() => [...operations(nameless as unknown as OpenApiDocument)]).toThrow(
      'the parameter at /paths/~1x/get/parameters/0 needs a name and an "in"',
    );
  });

  it('merges path-item parameters, the operation overriding one of the same name and place', () => {
    const doc: OpenApiDocument = {
      ...base,
      paths: {
        '/x/{id}': {
          parameters: [
            { name: 'id', in: 'path', schema: { type: 'string' } },
            { name: 'q', in: 'query', schema: { type: 'string' } },
          ],
          get: {
            operationId: 'x',
            parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'integer' } }],
          },
        },
      },
    };
    const [id, q] = findOperation(doc, 'x').parameters;
    expect(id).toMatchObject({ name: 'id', required: true, pointer: '/paths/~1x~1{id}/parameters/0' });
    expect(q).toMatchObject({ name: 'q', required: true, pointer: '/paths/~1x~1{id}/get/parameters/0' });
  });
});
