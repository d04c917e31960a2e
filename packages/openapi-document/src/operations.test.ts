import { describe, expect, it } from 'vitest';
import { OpenApiDocumentError } from './document-error.js';
import type { OpenApiDocument } from './document-types.js';
import { formatPointer } from './json-pointer.js';
import { findOperation, findResponse, operations } from './operations.js';

/** A document of the test's own: what the iterator reads, whatever the repository's document says. */
const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  security: [{ bearerAuth: [] }],
  paths: {
    '/auth/connections/{id}/login': {
      post: {
        operationId: 'loginAuthConnection',
        parameters: [{ $ref: '#/components/parameters/ConnectionId' }],
        requestBody: {
          content: {
            'text/plain': { schema: { type: 'string' } },
            'application/json': { schema: { $ref: '#/components/schemas/Login' }, examples: { empty: { value: {} } } },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Login' } } },
          },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
    '/profiles/{id_or_name}': {
      patch: {
        operationId: 'renameProfile',
        'x-repeatable': true,
        parameters: [
          {
            name: 'id_or_name',
            in: 'path',
            required: true,
            schema: { type: 'string' },
            'x-repeatable-when-matches': '^prof_',
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'ok' } },
      },
      delete: {
        operationId: 'deleteProfile',
        security: [{}],
        parameters: [{ name: 'id_or_name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'gone' } },
      },
      get: {
        operationId: 'retrieveProfile',
        'x-sdk-verb': 'get',
        parameters: [{ name: 'id_or_name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/browsers/{id}/logs/stream': {
      get: {
        operationId: 'streamBrowserLogs',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'source', in: 'query', required: true, schema: { $ref: '#/components/schemas/Q/properties/source' } },
          { name: 'path', in: 'query', schema: { $ref: '#/components/schemas/Q/properties/path' } },
        ],
        responses: {
          '200': {
            description: 'events',
            content: {
              'text/event-stream': {
                schema: { type: 'string', 'x-sse-event-data': { $ref: '#/components/schemas/Login' } },
              },
            },
          },
        },
      },
    },
    '/plain': {
      get: {
        operationId: 'listPlain',
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer' } },
          { name: 'source', in: 'query', schema: { $ref: '#/components/schemas/Q/properties/source' } },
        ],
        responses: { default: { description: 'whatever' } },
      },
    },
  },
  components: {
    parameters: { ConnectionId: { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } } },
    headers: { RequestId: { schema: { type: 'string' } } },
    responses: {
      NotFound: {
        description: 'not found',
        content: { 'application/json': { schema: { type: 'object', required: ['code', 'message'] } } },
      },
    },
    schemas: {
      Login: { type: 'object', properties: { proxy: { type: 'string' } }, additionalProperties: false },
      Q: { type: 'object', properties: { source: { enum: ['a', 'b'] }, path: { type: 'string' } } },
    },
  },
};

describe('operations', () => {
  it('yields every operation with method, path and pointer, in document order', () => {
    expect(
      [...operations(document)].map(({ operationId, method, path, pointer }) => [operationId, method, path, pointer]),
    ).toEqual([
      ['loginAuthConnection', 'post', '/auth/connections/{id}/login', '/paths/~1auth~1connections~1{id}~1login/post'],
      ['retrieveProfile', 'get', '/profiles/{id_or_name}', '/paths/~1profiles~1{id_or_name}/get'],
      ['deleteProfile', 'delete', '/profiles/{id_or_name}', '/paths/~1profiles~1{id_or_name}/delete'],
      ['renameProfile', 'patch', '/profiles/{id_or_name}', '/paths/~1profiles~1{id_or_name}/patch'],
      ['streamBrowserLogs', 'get', '/browsers/{id}/logs/stream', '/paths/~1browsers~1{id}~1logs~1stream/get'],
      ['listPlain', 'get', '/plain', '/paths/~1plain/get'],
    ]);
  });

  it('follows a parameter $ref and locates its schema there; a path parameter names its collection', () => {
    const [id] = findOperation(document, 'loginAuthConnection').parameters;
    expect(id).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
      collection: 'connections',
      pointer: '/components/parameters/ConnectionId',
      schema: { pointer: '/components/parameters/ConnectionId/schema', schema: { type: 'string', minLength: 1 } },
    });
    expect(findOperation(document, 'listPlain').parameters[0]?.collection).toBeUndefined();
  });

  it('resolves a parameter schema that is a $ref, and keeps where it is written', () => {
    const parameters = findOperation(document, 'streamBrowserLogs').parameters;
    expect(parameters.map((p) => `${p.in} ${p.name} ${p.required}`)).toEqual([
      'path id true',
      'query source true',
      'query path false',
    ]);
    expect(parameters[1]?.schema).toEqual({
      pointer: '/paths/~1browsers~1{id}~1logs~1stream/get/parameters/1/schema',
      schema: { enum: ['a', 'b'] },
    });
  });

  it('gives the request body by media type, and the JSON one as the body a client sends', () => {
    const login = findOperation(document, 'loginAuthConnection');
    expect(Object.keys(login.requestBody?.content ?? {})).toEqual(['text/plain', 'application/json']);
    expect(login.body).toEqual({
      required: false,
      mediaType: 'application/json',
      schema: {
        pointer: '/paths/~1auth~1connections~1{id}~1login/post/requestBody/content/application~1json/schema',
        schema: document.components?.schemas?.['Login'],
      },
    });
    expect(login.requestBody?.content['application/json']?.media.examples).toHaveProperty('empty');
    expect(findOperation(document, 'renameProfile').body?.required).toBe(true);
    expect(findOperation(document, 'streamBrowserLogs').body).toBeUndefined();
  });

  it('gives responses by status, a $ref followed, with schemas by media type and headers', () => {
    const login = findOperation(document, 'loginAuthConnection');
    expect(Object.keys(login.responses)).toEqual(['200', '404']);
    expect(login.responses['404']).toMatchObject({
      pointer: '/components/responses/NotFound',
      content: {
        'application/json': { schema: { pointer: '/components/responses/NotFound/content/application~1json/schema' } },
      },
    });
    expect(login.responses['200']?.headers['X-Request-Id']).toMatchObject({
      name: 'X-Request-Id',
      pointer: '/components/headers/RequestId',
      schema: { schema: { type: 'string' } },
    });
  });

  it('gives the success answer, and says when it is an event stream with the schema of its events', () => {
    expect(findOperation(document, 'loginAuthConnection')).toMatchObject({
      streaming: false,
      success: {
        status: '200',
        mediaType: 'application/json',
        schema: { schema: document.components?.schemas?.['Login'] },
      },
    });
    expect(findOperation(document, 'deleteProfile').success).toEqual({
      status: '204',
      mediaType: undefined,
      schema: undefined,
      eventData: undefined,
    });
    const stream = findOperation(document, 'streamBrowserLogs');
    expect(stream.streaming).toBe(true);
    expect(stream.success?.eventData).toEqual({
      pointer:
        '/paths/~1browsers~1{id}~1logs~1stream/get/responses/200/content/text~1event-stream/schema/x-sse-event-data',
      schema: { $ref: '#/components/schemas/Login' },
    });
    expect(findOperation(document, 'listPlain').success).toBeUndefined();
  });

  it('finds the one object schema that states the whole query, when every query parameter points into it', () => {
    expect(findOperation(document, 'streamBrowserLogs').query).toMatchObject({
      pointer: '/components/schemas/Q',
      parameters: [{ name: 'source' }, { name: 'path' }],
    });
    expect(findOperation(document, 'listPlain').query?.pointer).toBeUndefined();
    expect(findOperation(document, 'renameProfile').query).toBeUndefined();
  });

  it('reads security from the operation, else the document; an empty requirement makes it optional', () => {
    expect(findOperation(document, 'renameProfile').secured).toBe(true);
    expect(findOperation(document, 'deleteProfile').secured).toBe(false);
  });

  it('names each operation for an SDK: the path less its verb, and the operationId verb or x-sdk-verb', () => {
    expect([...operations(document)].map((o) => [...o.sdk.resource, o.sdk.verb].join('.'))).toEqual([
      'auth.connections.login',
      'profiles.get',
      'profiles.delete',
      'profiles.rename',
      'browsers.logs.stream',
      'plain.list',
    ]);
  });

  it('says which requests may be sent again: HTTP idempotency by default, x-repeatable, and per parameter value', () => {
    expect(findOperation(document, 'loginAuthConnection').repeatability).toEqual({ repeatable: false, when: {} });
    expect(findOperation(document, 'deleteProfile').repeatability).toEqual({ repeatable: true, when: {} });
    const rename = findOperation(document, 'renameProfile');
    expect(rename.repeatability).toEqual({ repeatable: true, when: { id_or_name: '^prof_' } });
  });

  it('says which operations only read: the safe methods, unless the document says a request cannot be repeated', () => {
    const safe = Object.fromEntries([...operations(document)].map((o) => [o.operationId, o.safe]));
    expect(safe).toEqual({
      loginAuthConnection: false,
      retrieveProfile: true,
      deleteProfile: false,
      renameProfile: false,
      streamBrowserLogs: true,
      listPlain: true,
    });
    const once = structuredClone(document);
    (once.paths!['/plain']!.get as Record<string, unknown>)['x-repeatable'] = false;
    expect(findOperation(once, 'listPlain').safe).toBe(false);
    (once.paths!['/plain']!.get as Record<string, unknown>)['x-repeatable'] = true;
    expect(findOperation(once, 'listPlain').safe).toBe(true);
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

describe('how a parameter is written', () => {
  const parameters = (list: object[]) => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      paths: { '/x/{id}': { get: { operationId: 'getX', parameters: list } } },
    } as unknown as OpenApiDocument;
    return [...operations(doc)][0]!.parameters.map((p) => [p.name, p.serialization]);
  };

  it('takes OpenAPI’s defaults by place, and the style and explode the parameter states', () => {
    expect(
      parameters([
        { name: 'id', in: 'path', schema: { type: 'integer' } },
        { name: 'colors', in: 'query', schema: { type: 'array' } },
        { name: 'sizes', in: 'query', style: 'pipeDelimited', schema: { type: 'array' } },
        { name: 'tags', in: 'query', explode: false, schema: { type: 'array' } },
        { name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object' } },
        { name: 'X-Depth', in: 'header', schema: { type: 'integer' } },
      ]),
    ).toEqual([
      ['id', { style: 'simple', explode: false }],
      ['colors', { style: 'form', explode: true }],
      ['sizes', { style: 'pipeDelimited', explode: false }],
      ['tags', { style: 'form', explode: false }],
      ['filter', { style: 'deepObject', explode: true }],
      ['X-Depth', { style: 'simple', explode: false }],
    ]);
  });

  it('refuses a style OpenAPI does not define for the place, and a deepObject not exploded', () => {
    expect(() => parameters([{ name: 'q', in: 'query', style: 'simple' }])).toThrow(
      'the parameter at /paths/~1x~1{id}/get/parameters/0 has style "simple"; a query parameter takes form, spaceDelimited, pipeDelimited, deepObject',
    );
    expect(() => parameters([{ name: 'q', in: 'query', style: 'deepObject', explode: false }])).toThrow(
      'is a deepObject, which OpenAPI defines exploded only',
    );
  });
});

describe('a document the iterator cannot use', () => {
  const base = { openapi: '3.1.0', info: { title: 'T', version: '1' } };

  it('an operation without operationId', () => {
    const doc: OpenApiDocument = { ...base, paths: { '/x': { get: { responses: {} } } } };
    expect(() => [...operations(doc)]).toThrow(
      new OpenApiDocumentError('the operation at /paths/~1x/get has no operationId', { pointer: '/paths/~1x/get' }),
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

  it.each([
    [{ 'x-repeatable': 'yes' }, {}, 'x-repeatable at /paths/~1x~1{id}/post must be true or false'],
    [{}, { 'x-repeatable-when-matches': 1 }, 'must be a regular expression (a string)'],
    [{}, { 'x-repeatable-when-matches': '(' }, 'is not a regular expression'],
    [{}, { 'x-repeatable-when-matches': '^x' }, 'narrows an operation that is not repeatable'],
    [{ operationId: '--' }, {}, 'the operationId at /paths/~1x~1{id}/post has no letter or digit to name a method'],
    [{}, { in: 'query' }, 'the path /x/{id} has {id}, which no path parameter of /paths/~1x~1{id}/post declares'],
    [{ 'x-sdk-verb': 'not-a-name' }, {}, 'x-sdk-verb at /paths/~1x~1{id}/post must be a camelCase identifier'],
    [{}, { style: 'matrix' }, 'has style "matrix"; a path parameter takes simple'],
    [{}, { style: 'form' }, 'has style "form"; a path parameter takes simple'],
    [{}, { explode: 'yes' }, 'explode at /paths/~1x~1{id}/post/parameters/0 must be true or false'],
  ])('refuses %j on the operation with %j on its parameter', (onOperation, onParameter, message) => {
    const doc: OpenApiDocument = {
      ...base,
      paths: {
        '/x/{id}': {
          post: {
            operationId: 'postX',
            parameters: [{ name: 'id', in: 'path', schema: { type: 'string' }, ...onParameter }],
            ...onOperation,
          },
        },
      },
    };
    expect(() => [...operations(doc)]).toThrow(message);
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

  it('refuses a declared path parameter the template lacks, and a template naming one twice', () => {
    const lacking: OpenApiDocument = {
      ...base,
      paths: {
        '/x': {
          get: {
            operationId: 'x',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          },
        },
      },
    };
    expect(() => [...operations(lacking)]).toThrow(
      'the path parameter "id" at /paths/~1x/get/parameters/0 is not in the path /x',
    );
    const twice: OpenApiDocument = { ...base, paths: { '/x/{id}/{id}': { get: { operationId: 'x' } } } };
    expect(() => [...operations(twice)]).toThrow('the path /x/{id}/{id} names {id} twice');
  });

  it('refuses a path with what a URL carries only percent-encoded, naming the path and the character', () => {
    for (const [path, char] of [
      ['/профили', 'п'],
      ['/x y/{id}', ' '],
      ['/a%20b', '%'],
      ['/things:cancel', ':'],
    ]) {
      const doc: OpenApiDocument = { ...base, paths: { [path!]: { get: { operationId: 'x' } } } };
      let thrown: unknown;
      try {
        [...operations(doc)];
      } catch (error) {
        thrown = error;
      }
      expect(thrown, path).toBeInstanceOf(OpenApiDocumentError);
      expect((thrown as OpenApiDocumentError).message).toContain(`the path ${path} has "${char}"`);
      expect((thrown as OpenApiDocumentError).pointer).toBe(formatPointer(['paths', path!]));
    }
    // Template names are not sent: their values are, encoded by each client.
    const parameters = [{ name: 'widget.id', in: 'path', required: true, schema: { type: 'string' } }];
    const kept: OpenApiDocument = {
      ...base,
      paths: { '/w-1.x_y/{widget.id}': { get: { operationId: 'x', parameters } } },
    };
    expect([...operations(kept)].map((o) => o.path)).toEqual(['/w-1.x_y/{widget.id}']);
  });

  it('refuses two path parameters that make one argument, naming both', () => {
    const string = { type: 'string' };
    const doc: OpenApiDocument = {
      ...base,
      paths: {
        '/x/{id_x}/{idX}': {
          get: {
            operationId: 'x',
            parameters: [
              { name: 'id_x', in: 'path', required: true, schema: string },
              { name: 'idX', in: 'path', required: true, schema: string },
            ],
          },
        },
      },
    };
    let error: OpenApiDocumentError | undefined;
    try {
      [...operations(doc)];
    } catch (caught) {
      error = caught as OpenApiDocumentError;
    }
    expect(error?.message).toBe(
      'the path parameters "id_x" (/paths/~1x~1{id_x}~1{idX}/get/parameters/0) and "idX" (/paths/~1x~1{id_x}~1{idX}/get/parameters/1) both make the argument idX: rename one',
    );
    expect(error?.pointer).toBe('/paths/~1x~1{id_x}~1{idX}/get/parameters/1');
  });
});

describe('names', () => {
  const base = { openapi: '3.1.0', info: { title: 'T', version: '1' } };
  const string = { type: 'string' };
  const named = (path: string, method: string, operation: Record<string, unknown>) =>
    [...operations({ ...base, paths: { [path]: { [method]: operation } } } as OpenApiDocument)][0]!;

  it('derives every generated name of an operation from its operationId and path', () => {
    const operation = named('/auth/connections/{id}/login', 'post', {
      operationId: 'loginAuthConnection',
      parameters: [{ name: 'id', in: 'path', required: true, schema: string }],
    });
    expect(operation.sdk).toEqual({ resource: ['auth', 'connections'], verb: 'login' });
    expect(operation.names).toEqual({
      function: 'loginAuthConnection',
      type: 'LoginAuthConnection',
      command: ['auth', 'connections', 'login'],
      tool: 'login_auth_connection',
      file: 'login-auth-connection',
      pathArguments: { id: 'id' },
    });
    expect(operation.parameters[0]).toMatchObject({ collection: 'connections', addresses: 'connection' });
  });

  it('makes reserved words, built-ins, dashes, dots and leading digits safe', () => {
    const operation = named('/2fa/{widget-id}/{options}/{constructor}', 'delete', {
      operationId: 'delete',
      parameters: ['widget-id', 'options', 'constructor'].map((name) => ({ name, in: 'path', schema: string })),
    });
    expect(operation.sdk).toEqual({ resource: ['_2fa'], verb: 'delete' });
    expect(operation.names).toMatchObject({
      function: 'delete_',
      type: 'Delete',
      command: ['2fa', 'delete'],
      tool: 'delete',
      pathArguments: { 'widget-id': 'widgetId', options: 'options_', constructor: 'constructor_' },
    });
    expect(named('/w', 'get', { operationId: 'widgets.get' }).names.function).toBe('widgetsGet');
    expect(named('/w', 'get', { operationId: 'constructor' }).names).toMatchObject({
      function: 'constructor_',
      tool: 'constructor_',
    });
    expect(named('/constructor', 'get', { operationId: 'getX', 'x-sdk-verb': 'toString' }).sdk).toEqual({
      resource: ['constructor_'],
      verb: 'toString_',
    });
    expect(named('/w', 'get', { operationId: 'get-widget' }).names).toMatchObject({
      function: 'getWidget',
      tool: 'get_widget',
    });
  });

  it('never makes a path of an operationId', () => {
    expect(named('/w', 'get', { operationId: '../../../../../x' }).names.file).toBe('x');
  });

  it('keeps letters of any script in an operationId', () => {
    const operation = named('/profiles', 'get', { operationId: 'получитьПрофили' });
    expect(operation.sdk).toEqual({ resource: ['profiles'], verb: 'получить' });
    expect(operation.names.command).toEqual(['profiles', 'получить']);
  });
});
