import { loadOpenApiDocument, type OpenApiDocument } from '@browser-cloud/openapi-document';
import { describe, expect, it } from 'vitest';
import {
  type CheckedRequest,
  createRequestChecker,
  isRefusal,
  MAX_JSON_DEPTH,
  type Refusal,
  type RouteMatch,
} from './request-checker.js';

/** A small document of its own: the rules under test, whatever the repository's document says. */
const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 't', version: '1.0.0' },
  paths: {
    '/things/{thing_id}': {
      parameters: [{ name: 'thing_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
      patch: {
        operationId: 'updateThing',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingUpdate' } } },
        },
        responses: { '200': { description: 'ok' } },
      },
      delete: { operationId: 'deleteThing', responses: { '204': { description: 'gone' } } },
    },
    '/things/{thing_id}/events': {
      get: {
        operationId: 'listThingEvents',
        parameters: [
          { name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'kind', in: 'query', required: true, schema: { $ref: '#/components/schemas/Query/properties/kind' } },
          { name: 'file', in: 'query', schema: { $ref: '#/components/schemas/Query/properties/file' } },
          { name: 'follow', in: 'query', schema: { $ref: '#/components/schemas/Query/properties/follow' } },
          { name: 'limit', in: 'query', schema: { $ref: '#/components/schemas/Query/properties/limit' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/pages/{page_no}': {
      get: {
        operationId: 'getPage',
        parameters: [{ name: 'page_no', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/plain': {
      get: {
        operationId: 'getPlain',
        parameters: [{ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      ThingUpdate: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 5 }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['name'],
        additionalProperties: false,
      },
      Query: {
        type: 'object',
        properties: {
          kind: { enum: ['file', 'process'] },
          file: { type: 'string', minLength: 1 },
          follow: { type: 'boolean' },
          limit: { type: 'integer', minimum: 1 },
        },
        required: ['kind'],
        additionalProperties: false,
        if: { properties: { kind: { const: 'file' } }, required: ['kind'] },
        then: { required: ['file'] },
      },
    },
  },
};

const checker = createRequestChecker(document);

function send(method: string, target: string, body?: string, contentType = 'application/json') {
  const [pathname = '', search = ''] = target.split('?');
  const match = checker.route(method, pathname);
  if (isRefusal(match)) return match;
  return checker.check(match, { search, headers: body === undefined ? {} : { 'content-type': contentType }, body });
}

function refused(result: CheckedRequest | RouteMatch | Refusal): Refusal {
  if (!isRefusal(result)) throw new Error(`accepted: ${JSON.stringify(result)}`);
  return result;
}

function accepted(result: CheckedRequest | Refusal): CheckedRequest {
  if (isRefusal(result)) throw new Error(`refused: ${JSON.stringify(result.body)}`);
  return result;
}

const details = (result: CheckedRequest | Refusal) => refused(result).body.details?.map((d) => d.message);

describe('route', () => {
  it('finds the operation by method and path, with its path values decoded', () => {
    const match = checker.route('PATCH', '/things/a%2Fb');
    expect(isRefusal(match)).toBe(false);
    expect(match).toMatchObject({ operation: { operationId: 'updateThing' }, path: { thing_id: 'a/b' } });
  });

  it('answers 404 for a path of no operation, 405 with Allow for a method the path lacks', () => {
    expect(refused(checker.route('GET', '/zz_not_in_document'))).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    expect(refused(checker.route('PUT', '/things/x'))).toMatchObject({
      status: 405,
      headers: { allow: 'DELETE, PATCH' },
      body: { code: 'method_not_allowed' },
    });
  });
});

describe('check', () => {
  it('accepts a valid request and hands out its decoded parts', () => {
    expect(accepted(send('PATCH', '/things/a%20b', '{"name":"n"}'))).toMatchObject({
      path: { thing_id: 'a b' },
      query: {},
      body: { name: 'n' },
    });
    expect(accepted(send('GET', '/things/t/events?kind=file&file=%2Fx&follow=true&limit=3')).query).toEqual({
      kind: 'file',
      file: '/x',
      follow: true,
      limit: 3,
    });
  });

  it('checks a path value as its schema types it, as the client does, and hands out its text', () => {
    expect(accepted(send('GET', '/pages/3')).path).toEqual({ page_no: '3' });
    expect(details(send('GET', '/pages/0'))).toEqual(['page_no: must be >= 1']);
    expect(details(send('GET', '/pages/three'))).toEqual(['page_no: must be integer']);
  });

  it('refuses an empty path value by the parameter rule (400), not as an unknown path', () => {
    expect(refused(send('DELETE', '/things/'))).toMatchObject({
      status: 400,
      body: { message: 'the path is invalid' },
    });
  });

  it('applies the rules of the one schema that states the whole query, and refuses an undeclared parameter', () => {
    expect(details(send('GET', '/things/t/events?kind=file'))).toEqual(['file: is required']);
    expect(details(send('GET', '/things/t/events?kind=process&zz_not_in_document=1'))).toEqual([
      expect.stringMatching(/^zz_not_in_document: /),
    ]);
    expect(details(send('GET', '/plain?zz_not_in_document=1'))).toEqual([expect.stringMatching(/^zz_not_in_document/)]);
  });

  it('reads query text as the parameter type, and refuses text that does not read, a repeated value, bad encoding', () => {
    expect(details(send('GET', '/things/t/events?kind=process&follow=yes'))).toEqual(['follow: must be boolean']);
    expect(details(send('GET', '/plain?page=0'))).toEqual([expect.stringMatching(/^page: must be >= 1/)]);
    expect(refused(send('GET', '/things/t/events?kind=process&kind=file')).status).toBe(400);
    expect(details(send('GET', '/things/t/events?kind=process&file=%E0%A4'))).toEqual([
      'file=%E0%A4: is not valid percent-encoding',
    ]);
  });

  it('refuses a missing required body, a body where none is taken, and one of the wrong content type', () => {
    expect(details(send('PATCH', '/things/x'))).toEqual(['body: is required']);
    expect(details(send('PATCH', '/things/x', '  '))).toEqual(['body: is required']);
    expect(details(send('DELETE', '/things/x', '{}'))).toEqual(['body: is not allowed (the operation takes no body)']);
    expect(refused(send('PATCH', '/things/x', '{"name":"n"}', 'text/plain')).body).toMatchObject({
      message: 'the request headers are invalid',
      details: [{ message: 'content-type: must be application/json (got "text/plain")' }],
    });
  });

  it('refuses malformed JSON, invalid UTF-8 and nesting past the limit before parsing it', () => {
    expect(details(send('PATCH', '/things/x', '{"name":'))?.[0]).toMatch(/^body: is not valid JSON/);
    const match = checker.route('PATCH', '/things/x');
    if (isRefusal(match)) throw new Error('no route');
    const invalidUtf8 = checker.check(match, {
      search: '',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect(details(invalidUtf8)).toEqual(['body: is not valid UTF-8']);
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(details(send('PATCH', '/things/x', deep))?.[0]).toMatch(/deeper than 32 levels \(at character 32\)/);
  });

  it('names the field and the rule of a body that breaks the schema', () => {
    expect(details(send('PATCH', '/things/x', '{"name":"toolong"}'))).toEqual([
      'name: must be at most 5 characters (got 7)',
    ]);
    expect(details(send('PATCH', '/things/x', '{"name":"n","zz_not_in_document":1}'))?.[0]).toMatch(
      /^zz_not_in_document: /,
    );
  });

  it('refuses a string that is not well-formed Unicode anywhere in the body, and in a property name', () => {
    expect(refused(send('PATCH', '/things/x', '{"name":"a\\ud800"}')).body).toEqual({
      code: 'bad_request',
      message: 'the request body is invalid',
      details: [{ code: 'invalid_input', message: 'name: must be well-formed Unicode (it holds a lone surrogate)' }],
    });
    expect(details(send('PATCH', '/things/x', '{"name":"n","tags":["ok","\\udc00x"]}'))).toEqual([
      'tags[1]: must be well-formed Unicode (it holds a lone surrogate)',
    ]);
    expect(details(send('PATCH', '/things/x', '{"name":"n","\\ud800":1}'))).toEqual([
      'body: a property name must be well-formed Unicode',
    ]);
    // A surrogate pair is a well-formed character.
    expect(accepted(send('PATCH', '/things/x', '{"name":"\\ud83d\\ude00"}')).body).toEqual({ name: '😀' });
  });

  it('refuses the percent-encoded bytes of a lone surrogate in a path or query value', () => {
    expect(details(send('DELETE', '/things/%ED%A0%80'))).toEqual(['thing_id: is not valid percent-encoding']);
    expect(details(send('GET', '/things/t/events?kind=file&file=%ED%A0%80'))?.[0]).toMatch(
      /not valid percent-encoding/,
    );
  });
});

describe('over the repository document', () => {
  const real = loadOpenApiDocument();
  const realChecker = createRequestChecker(real);

  it('accepts each operation called with the examples the document gives its parameters and body', () => {
    for (const operation of realChecker.operations) {
      const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const parameter = operation.parameters.find((p) => p.name === name);
        return encodeURIComponent(String(parameter?.parameter['example'] ?? 'x'));
      });
      const match = realChecker.route(operation.method, path);
      expect(isRefusal(match), `${operation.operationId} routes`).toBe(false);
      if (isRefusal(match)) continue;
      const query = (operation.query?.parameters ?? [])
        .filter((p) => p.parameter['example'] !== undefined)
        .map((p) => `${p.name}=${encodeURIComponent(String(p.parameter['example']))}`)
        .join('&');
      const media = operation.body && operation.requestBody?.content[operation.body.mediaType]?.media;
      const examples = Object.values(media?.examples ?? {}).map((e) => (e as { value?: unknown }).value);
      for (const example of examples.length > 0 ? examples : [undefined]) {
        const result = realChecker.check(match, {
          search: query,
          headers: { 'content-type': operation.body?.mediaType ?? 'application/json' },
          body: example === undefined ? undefined : JSON.stringify(example),
        });
        expect(result, `${operation.operationId} ${JSON.stringify(example)}`).not.toHaveProperty('status');
      }
    }
  });
});
